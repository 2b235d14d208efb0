import Foundation
import TransitRuntime

// libFuzzer entry point of the runtime harness: built by `make fuzz` together with the
// TransitRealtime sources as one module; FUZZ_TARGET `bundle` and `realtime-extremes` are in
// BundleFuzzTarget.swift and RealtimeExtremesFuzzTarget.swift. The realtime targets need FUZZ_BUNDLE (the BART bundle
// that Fuzz/run.sh compiles from ../shared/realtime/bart-rt.zip) and stop at once, loudly,
// without it: a harness that quietly fell back to framing would be credited with what it
// never reached.
// - realtime: frames the message and builds a `RealtimeSnapshot` on the bundle, which
//   decodes every entity (trip updates part by part through `TripUpdateParts`, the rest
//   whole), matches trips and builds added trips and alerts.
// - realtime-merge: also asks live boards and arrivals, at the stops the message names and
//   three busy BART stations, at the message's own time and at the time of the real capture
//   (FUZZ_CAPTURE), so that a mutated header time does not move every board away from the
//   trips the updates match.

private let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "realtime"
private let bundle: TransitBundle = {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"] else { fatalError("FUZZ_BUNDLE is not set") }
    do { return try TransitBundle(path: path) } catch { fatalError("FUZZ_BUNDLE \(path) does not open: \(error)") }
}()
private let captureTime: Date? = ProcessInfo.processInfo.environment["FUZZ_CAPTURE"].map { path in
    do { return try RealtimeMessage(contentsOf: path).timestamp } catch { fatalError("FUZZ_CAPTURE \(path): \(error)") }
}
private let busyStops = ["MONT", "DALY", "12TH"]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>
) -> CInt {
    _ = bundle
    _ = captureTime
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch target {
    case "bundle":
        fuzzBundle(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    case "realtime-extremes":
        fuzzRealtimeExtremes(Array(UnsafeBufferPointer(start: data, count: size)), bundle: bundle)
        return 0
    default: break
    }
    guard let message = try? RealtimeMessage(data: Data(bytes: data, count: size)) else { return 0 }
    guard let snapshot = try? RealtimeSnapshot(messages: [message], bundle: bundle) else { return 0 }
    guard target == "realtime-merge" else { return 0 }
    var stops = busyStops
    for index in 0..<min(message.entityCount, 8) {
        guard let entity = try? message.entity(index), entity.hasTripUpdate else { continue }
        for update in entity.tripUpdate.stopTimeUpdate.prefix(4) where update.hasStopID && !stops.contains(update.stopID) {
            stops.append(update.stopID)
        }
    }
    for at in [message.timestamp, captureTime].compactMap({ $0 }) {
        for stop in stops.prefix(12) {
            _ = try? bundle.departures(
                from: stop, at: .instant(at.addingTimeInterval(-600)), within: 3600, limit: 20, realtime: snapshot, now: at)
            _ = try? bundle.arrivals(
                to: [stop], at: .instant(at.addingTimeInterval(-600)), within: 3600, limit: 20, realtime: snapshot, now: at)
        }
    }
    return 0
}
