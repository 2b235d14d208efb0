import Foundation
import TransitRuntime

// The structure-aware realtime fuzzer (`FUZZ_TARGET=realtime-extremes`), part of the
// runtime harness: each input picks values of the real BART capture (FUZZ_CAPTURE) and
// pushes them to extremes (times, delays, sequences, dates, periods, positions, counts),
// so that the message stays valid protobuf and reaches matching, propagation, alerts and
// live boards instead of stopping at the decoder.

private let capture: TransitRealtime_FeedMessage = {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_CAPTURE"], let data = FileManager.default.contents(atPath: path),
        let message = try? TransitRealtime_FeedMessage(serializedBytes: data)
    else { fatalError("FUZZ_CAPTURE does not hold a GTFS-Realtime message") }
    return message
}()

private let wide: [Int64] = [0, -1, 1, Int64(Int32.max), Int64(Int32.min), Int64.max, Int64.min, 253_402_300_799, 253_402_300_800]

func fuzzRealtimeExtremes(_ bytes: [UInt8], bundle: TransitBundle) {
    guard !bytes.isEmpty else { return }
    var message = capture
    var at = 0
    func byte() -> Int {
        defer { at += 1 }
        return at < bytes.count ? Int(bytes[at]) : 0
    }
    func value() -> Int64 {
        let kind = byte()
        if kind < 160 { return wide[kind % wide.count] }
        return (0..<8).reduce(Int64(0)) { value, _ in value << 8 | Int64(byte()) }
    }
    func unsigned() -> UInt64 { UInt64(bitPattern: value()) }
    for _ in 0..<16 where at < bytes.count && !message.entity.isEmpty {
        let e = byte() % message.entity.count
        switch byte() % 14 {
        case 0: message.header.timestamp = unsigned()
        case 1: message.entity[e].tripUpdate.timestamp = unsigned()
        case 2, 3, 4, 5:
            guard !message.entity[e].tripUpdate.stopTimeUpdate.isEmpty else { continue }
            let s = byte() % message.entity[e].tripUpdate.stopTimeUpdate.count
            switch byte() % 6 {
            case 0: message.entity[e].tripUpdate.stopTimeUpdate[s].arrival.time = value()
            case 1: message.entity[e].tripUpdate.stopTimeUpdate[s].departure.time = value()
            case 2: message.entity[e].tripUpdate.stopTimeUpdate[s].arrival.delay = Int32(truncatingIfNeeded: value())
            case 3: message.entity[e].tripUpdate.stopTimeUpdate[s].departure.uncertainty = Int32(truncatingIfNeeded: value())
            case 4: message.entity[e].tripUpdate.stopTimeUpdate[s].stopSequence = UInt32(truncatingIfNeeded: value())
            default: message.entity[e].tripUpdate.stopTimeUpdate[s].scheduleRelationship = .init(rawValue: byte() % 4) ?? .noData
            }
        case 6: message.entity[e].tripUpdate.delay = Int32(truncatingIfNeeded: value())
        case 7: message.entity[e].tripUpdate.trip.startDate = ["", "00000000", "99999999", "20230229", "2023040", "abcdefgh"][byte() % 6]
        case 8:
            message.entity[e].tripUpdate.trip.startTime = ["", "25:00:00", "99:99:99", "-1:00:00", "00:00:60", "4294967:00:00"][byte() % 6]
        case 9: message.entity[e].tripUpdate.trip.scheduleRelationship = .init(rawValue: byte() % 9) ?? .canceled
        case 10:
            var range = TransitRealtime_TimeRange()
            range.start = unsigned()
            range.end = unsigned()
            message.entity[e].alert.activePeriod.append(range)
        case 11:
            message.entity[e].vehicle.position.latitude = [Float.nan, .infinity, -.infinity, 91, -1e30, 0][byte() % 6]
            message.entity[e].vehicle.position.longitude = [Float.nan, .infinity, 181, 1e30][byte() % 4]
            message.entity[e].vehicle.timestamp = unsigned()
        case 12:
            // Repeated calls, up to 2,048 per trip: more only measures how long a large message
            // takes to read (linear: 409,600 in one trip took 14 s of CPU under ASan).
            if message.entity[e].tripUpdate.stopTimeUpdate.count < 2_048 {
                message.entity[e].tripUpdate.stopTimeUpdate += message.entity[e].tripUpdate.stopTimeUpdate
            }
        default: message.entity.append(message.entity[e])
        }
    }
    guard let data = try? message.serializedData(), let decoded = try? RealtimeMessage(data: data),
        let snapshot = try? RealtimeSnapshot(messages: [decoded], bundle: bundle)
    else { return }
    let times = [decoded.timestamp, Date(timeIntervalSince1970: TimeInterval(capture.header.timestamp))]
    for now in times {
        for stop in ["MONT", "EMBR", "12TH"] {
            _ = try? bundle.departures(from: stop, at: .instant(now.addingTimeInterval(-600)), within: 3600, realtime: snapshot, now: now)
            _ = try? bundle.arrivals(to: [stop], at: .instant(now.addingTimeInterval(-600)), within: 3600, realtime: snapshot, now: now)
        }
        _ = try? bundle.journeys(from: .stop("MONT"), to: .stop("DALY"), departingAt: .instant(now), realtime: snapshot, now: now)
        _ = try? bundle.journeyRange(
            from: .stop("EMBR"), to: .stop("DALY"), departingAt: .instant(now), within: 1800, options: JourneyOptions(rangeSearches: 3),
            realtime: snapshot, now: now)
    }
}
