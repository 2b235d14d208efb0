import Foundation
import TransitRuntime

extension SnapshotBuilder {
    /// The entities one thread reads at a time: a message of one run (BART's 91 trip
    /// updates) is read on the caller's thread; 10,000 trip updates make 40 runs.
    static let runLength = 256

    /// Every entity of `message`, read after those `builder` read, in runs of `runLength`
    /// by as many threads as the machine has cores: each run by one thread into its own
    /// builder, and each run appended to `builder` as soon as the runs before it are (while
    /// the other threads read on; only the runs read out of order wait in memory). The
    /// same builder as reading the entities one by one, in less time (`transit-bench
    /// realtime`). Every thread has finished when this returns.
    /// `stop`: asked between runs; once it says true no further run is read (the caller
    /// throws `CancellationError` and drops the builder).
    static func read(
        _ message: RealtimeMessage, matcher: TripMatcher, adder: AddedTripBuilder, into builder: inout SnapshotBuilder,
        stop: @Sendable () -> Bool = { false }
    ) {
        let count = message.entityCount
        let runs = (count + runLength - 1) / runLength
        let threads = min(runs, ProcessInfo.processInfo.activeProcessorCount)
        builder.reserveTrips(count)
        guard threads > 1 else {
            var part = SnapshotBuilder()
            for run in 0..<runs where !stop() {
                part.read(message, run * runLength..<min(count, (run + 1) * runLength), matcher: matcher, adder: adder)
            }
            builder.append(part)
            return
        }
        let shared = Locked(Runs(count: runs, result: builder))
        builder = SnapshotBuilder()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var next = shared.withLock { $0.take() }
            var days = TripMatcher.ServiceDays()
            while let index = next, !stop() {
                var part = SnapshotBuilder()
                part.serviceDays = days
                part.read(message, index * runLength..<min(count, (index + 1) * runLength), matcher: matcher, adder: adder)
                days = part.serviceDays
                next = shared.withLock {
                    $0.finish(index, part)
                    return $0.take()
                }
            }
        }
        builder = shared.withLock { $0.takeResult() }
    }

    /// The runs of one `read(_:matcher:adder:into:)` call, shared by its threads under a lock.
    private struct Runs {
        let count: Int
        private var taken = 0
        /// Runs read whose predecessors are not all appended yet, by index.
        private var waiting: [Int: SnapshotBuilder] = [:]
        private var appended = 0
        /// The builder the runs are appended to.
        private var result: SnapshotBuilder

        init(count: Int, result: SnapshotBuilder) {
            self.count = count
            self.result = result
        }

        /// The builder with every run appended (once every run is).
        mutating func takeResult() -> SnapshotBuilder {
            let taken = result
            result = SnapshotBuilder()
            return taken
        }

        /// The next run no thread has taken, nil when none is left.
        mutating func take() -> Int? {
            guard taken < count else { return nil }
            taken += 1
            return taken - 1
        }

        /// Run `index` has been read into `part`: it and any waiting runs after it that
        /// are now in order are appended.
        mutating func finish(_ index: Int, _ part: SnapshotBuilder) {
            waiting[index] = part
            while let next = waiting.removeValue(forKey: appended) {
                result.append(next)
                appended += 1
            }
        }
    }

    /// Reads the entities at `indices` of `message`, in order.
    private mutating func read(_ message: RealtimeMessage, _ indices: Range<Int>, matcher: TripMatcher, adder: AddedTripBuilder) {
        for index in indices {
            if let (id, update) = message.tripUpdateEntity(index, knownTripID: matcher.preparedID(entity: index)) {
                addTripUpdateEntity(update, entityID: id, index: index, at: matcher.messageDate, matcher: matcher, adder: adder)
                continue
            }
            do {
                add(try message.entity(index), index: index, at: matcher.messageDate, matcher: matcher, adder: adder)
            } catch {
                addMalformed(index: index, error)
            }
        }
    }
}
