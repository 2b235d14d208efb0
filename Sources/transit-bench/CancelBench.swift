import Foundation
import TransitRuntime

extension TransitBench {
    /// `transit-bench cancel BUNDLE N`: N range plans (every journey leaving in 12 hours)
    /// between random stops, each run whole once, then again through the async twin and
    /// cancelled 2 ms after it starts: how long the cancelled call takes to answer
    /// `CancellationError` after `cancel()`.
    static func cancelling(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let stops = try randomStopsAndTimes(bundle, 2 * count)
        var whole: [Double] = []
        var lags: [Double] = []
        var answered = 0
        for i in 0..<count {
            let from = JourneyPlace.stop(stops[i].0, feed: stops[i].1)
            let to = JourneyPlace.stop(stops[count + i].0, feed: stops[count + i].1)
            let at = QueryTime.instant(stops[i].2)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try bundle.journeys(from: from, to: to, departingAt: at, within: 12 * 3600)
            whole.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let task = Task { try await bundle.journeys(from: from, to: to, departingAt: at, within: 12 * 3600) }
            usleep(2000)
            let cancelledAt = DispatchTime.now().uptimeNanoseconds
            task.cancel()
            let lag = Locked(0.0)
            let done = DispatchSemaphore(value: 0)
            Task {
                if (try? await task.value) != nil { lag.withLock { $0 = -1 } }
                let ended = Double(DispatchTime.now().uptimeNanoseconds - cancelledAt) / 1e6
                lag.withLock { $0 = $0 < 0 ? $0 : ended }
                done.signal()
            }
            done.wait()
            let measured = lag.withLock { $0 }
            if measured < 0 { answered += 1 } else { lags.append(measured) }
        }
        let median = { (values: [Double]) in values.isEmpty ? 0 : values.sorted()[values.count / 2] }
        print(
            String(
                format:
                    "range plans of 12 h, whole: median %.1f ms, max %.1f ms; cancelled after 2 ms: answered in median %.2f ms, max %.2f ms (%d of %d finished before the cancel)",
                median(whole), whole.max() ?? 0, median(lags), lags.max() ?? 0, answered, count))
    }
}
