import Foundation
import TransitRuntime

// libFuzzer entry point for GTFS-Realtime: built by `make fuzz` together with the
// TransitRealtime sources as one module. FUZZ_TARGET realtime decodes the input as a
// message; realtime-merge also matches it against FUZZ_BUNDLE (the BART bundle the script
// compiles) and asks a live board at the message's time.

private let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "realtime"
private let bundle = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"].flatMap { try? TransitBundle(path: $0) }
private let boardStops = ["MONT", "DALY", "12TH"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let message = try? RealtimeMessage(data: Data(bytes: data, count: size)) else { return 0 }
    guard target == "realtime-merge", let bundle else { return 0 }
    guard let snapshot = try? RealtimeSnapshot(messages: [message], bundle: bundle) else { return 0 }
    let at = message.timestamp
    for stop in boardStops {
        _ = try? bundle.departures(from: stop, at: .instant(at), within: 3600, limit: 20, realtime: snapshot, now: at)
        _ = try? bundle.arrivals(to: [stop], at: .instant(at), within: 3600, limit: 20, realtime: snapshot, now: at)
    }
    return 0
}
