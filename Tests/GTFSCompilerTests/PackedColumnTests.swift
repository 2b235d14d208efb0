import BundleFormat
import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// The packed BLOB columns of the bundle: exact bytes for hand-checked cases, round trips
/// for awkward values, and damaged bytes refused with an error rather than a crash.
final class PackedColumnTests: XCTestCase {
    func testVarintsAreLEB128AndZigzag() throws {
        var w = PackedWriter()
        w.unsigned(0)
        w.unsigned(127)
        w.unsigned(128)
        w.unsigned(300)
        w.signed(-1)
        w.signed(1)
        w.signed(-64)
        // 300 = 0b10_0101100: low 7 bits 0x2C with the continuation bit, then 0x02.
        // Zigzag: -1 -> 1, 1 -> 2, -64 -> 127.
        XCTAssertEqual(w.bytes, [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0x01, 0x02, 0x7F])
        var r = PackedReader(w.bytes)
        XCTAssertEqual([try r.unsigned(), try r.unsigned(), try r.unsigned(), try r.unsigned()], [0, 127, 128, 300])
        XCTAssertEqual([try r.signed(), try r.signed(), try r.signed()], [-1, 1, -64])
        XCTAssertTrue(r.isAtEnd)
        // Every packed value fits in 32 bits; anything larger is damage, refused.
        var extremes = PackedWriter()
        for v in [1 << 30 - 1, -(1 << 30), -1_000_000_007] { extremes.signed(v) }
        extremes.unsigned(Int(Int32.max))
        var back = PackedReader(extremes.bytes)
        XCTAssertEqual([try back.signed(), try back.signed(), try back.signed()], [1 << 30 - 1, -(1 << 30), -1_000_000_007])
        XCTAssertEqual(try back.unsigned(), Int(Int32.max))
        var large = PackedWriter()
        large.unsigned(Int(Int32.max) + 1)
        large.signed(1 << 30)
        var refused = PackedReader(large.bytes)
        XCTAssertThrowsError(try refused.unsigned())
        var refusedSigned = PackedReader(Array(large.bytes.suffix(5)))
        XCTAssertThrowsError(try refusedSigned.signed(), "2^30 zigzags to 2^31")
    }

    func testPatternStopsRoundTripAndTypicalStopsAreSmall() throws {
        let stops = [
            PatternStopRecord(
                stopSequence: 1, sid: 40, arrivalOffset: 0, departureOffset: 0, pickupType: 0, dropOffType: 1, interpolated: false, hid: nil
            ),
            PatternStopRecord(
                stopSequence: 2, sid: 41, arrivalOffset: 90, departureOffset: 90, pickupType: 0, dropOffType: 0, interpolated: false,
                hid: nil),
            PatternStopRecord(
                stopSequence: 5, sid: 12, arrivalOffset: 150, departureOffset: 180, pickupType: 3, dropOffType: 2, interpolated: true,
                hid: 7),
            PatternStopRecord(
                stopSequence: 4, sid: 3_000_000, arrivalOffset: 200_000, departureOffset: 200_000, pickupType: 1, dropOffType: 3,
                interpolated: false, hid: 0),
            PatternStopRecord(
                stopSequence: 6, sid: 3_000_001, arrivalOffset: 200_060, departureOffset: 200_060, pickupType: 0, dropOffType: 0,
                interpolated: false, approximate: true, hid: nil),
        ]
        let bytes = PatternStopsBlob.encode(stops)
        XCTAssertEqual(try PatternStopsBlob.decode(bytes), stops)
        // The second stop: flags 0, sid +1 (zigzag 2), departure +90 (zigzag 180 = 0xB4 0x01).
        XCTAssertEqual(Array(PatternStopsBlob.encode(Array(stops.prefix(2))).suffix(4)), [0x00, 0x02, 0xB4, 0x01])
        XCTAssertEqual(try PatternStopsBlob.decode([]), [])
        // timepoint 0 sets bit 8 of the flags, so only such stops take a second flags byte:
        // 256 + 2 (stop_sequence steps by 6 from 0) = 0x82 0x02 in LEB128.
        XCTAssertEqual(Array(PatternStopsBlob.encode([stops[4]]).prefix(2)), [0x82, 0x02])
        // Decoding reserves room for the most stops the bytes could hold (one per 3 bytes),
        // then keeps only what it read: kept patterns carry no spare room.
        let many = (0..<40).map { i in
            PatternStopRecord(
                stopSequence: i + 1, sid: 40 + i, arrivalOffset: 120 * i, departureOffset: 120 * i, pickupType: 0, dropOffType: 0,
                interpolated: false, hid: 300_000)
        }
        let decoded = try PatternStopsBlob.decode(PatternStopsBlob.encode(many))
        XCTAssertEqual(decoded, many)
        XCTAssertLessThanOrEqual(decoded.capacity, many.count + many.count / 8 + 1)
    }

    func testPatternTripsRoundTripLeavingOutRepeatedFields() throws {
        let trips = PatternTripsBlob.canonicalOrder([
            PatternTripRecord(
                tid: 9, startTime: 30_000, sv: 2, rid: 5, hid: 3, directionID: 1, wheelchairAccessible: 1, frequency: false),
            PatternTripRecord(
                tid: 4, startTime: 28_800, sv: 2, rid: 5, hid: 3, directionID: 1, wheelchairAccessible: 1, frequency: false),
            PatternTripRecord(
                tid: 12, startTime: 21_600, sv: 1, rid: 5, hid: nil, directionID: nil, wheelchairAccessible: 0, frequency: true),
            PatternTripRecord(
                tid: 2, startTime: 30_000, sv: 0, rid: 6, hid: 0, directionID: 0, wheelchairAccessible: 2, frequency: false),
        ])
        XCTAssertEqual(trips.map(\.tid), [4, 2, 9, 12], "regular by start then tid, templates last")
        let bytes = PatternTripsBlob.encode(trips)
        XCTAssertEqual(try PatternTripsBlob.decode(bytes), trips)
        // A trip like the one before but 20 minutes later and 1 tid on: flags, tid, start.
        let twin = [
            trips[0],
            PatternTripRecord(
                tid: 5, startTime: 30_000, sv: 2, rid: 5, hid: 3, directionID: 1, wheelchairAccessible: 1, frequency: false),
        ]
        XCTAssertEqual(
            Array(PatternTripsBlob.encode(twin).suffix(4)), [0x00, 0x02, 0xE0, 0x12], "1,200 s zigzag = 2,400 = 0x60 + 18 * 128")
    }

    func testTripIDsShareBytesWithAnEarlierIDAtBothEnds() throws {
        let ids = [
            "20485815-25SEPB-UPKBus-Mardi-01", "20485815-25SEPB-UPKBus-Semaine-01", "20485816-25SEPB-UPKBus-Mardi-01",
            "20485816-25SEPB-UPKBus-Semaine-01", "X", "", "Zürich→Genève", "Zürich→Bern",
        ]
        var entries: [TripBlock.Entry?] = ids.enumerated().map { TripBlock.Entry(tripID: $1, pid: [3, 3, 1, 1, 9, 9, 2, 2][$0]) }
        entries.insert(nil, at: 4)  // a tid whose trip was removed
        let bytes = TripBlock.encode(entries)
        let block = try TripBlock.decode(firstTid: 129, bytes)
        XCTAssertEqual(block.entries, entries)
        XCTAssertEqual(block.entry(tid: 131)?.tripID, "20485816-25SEPB-UPKBus-Mardi-01")
        XCTAssertNil(block.entry(tid: 133), "the gap")
        XCTAssertEqual(block.entry(tid: 136)?.tripID, "Zürich→Genève")
        XCTAssertEqual(block.entry(tid: 137)?.tripID, "Zürich→Bern")
        XCTAssertNil(block.entry(tid: 138))
        XCTAssertEqual(TripBlock.firstTid(holding: 129), 129)
        XCTAssertEqual(TripBlock.firstTid(holding: 192), 129)
        XCTAssertEqual(TripBlock.firstTid(holding: 193), 193)
        // The third id refers two back: 7 bytes of prefix and 23 of suffix kept, "6" between.
        let third = Array(TripBlock.encode(Array(entries.prefix(3))).suffix(6))
        XCTAssertEqual(third, [0x03, 0x07, 0x17, 0x01, UInt8(ascii: "6"), 0x03], "slot 1 + back 2, prefix 7, suffix 23, 1 byte, pid -2")
        XCTAssertEqual(TripBlock.encode([nil]), [0x00], "a gap is one byte")
    }

    /// Random blocks (seeded; `TEST_SEED` replays) of ids made of a few shared parts, so
    /// that most refer to an earlier one, with gaps: decoded, every entry is the one encoded.
    func testRandomTripBlocksDecodeToWhatWasEncoded() throws {
        let seed = SplitMix64.testSeed(0x5EED_0064)
        var rng = SplitMix64(state: seed)
        let parts = ["2048", "5815", "-25SEPB-", "UPKBus", "-Semaine-", "Mardi", "01", "é", "→", "~3", ""]
        for _ in 0..<300 {
            let count = Int(rng.next() % UInt64(TripBlock.capacity)) + 1
            let entries: [TripBlock.Entry?] = (0..<count).map { _ in
                guard rng.next() % 8 != 0 else { return nil }
                let id = (0..<Int(rng.next() % 6)).map { _ in parts[Int(rng.next() % UInt64(parts.count))] }.joined()
                return TripBlock.Entry(tripID: id, pid: Int(rng.next() % 5_000))
            }
            let block = try TripBlock.decode(firstTid: 65, TripBlock.encode(entries))
            XCTAssertEqual(block.entries, entries, "TEST_SEED=\(seed)")
            // Each id orders against every other as its text does, byte by byte.
            let probe = entries.compactMap { $0?.tripID }.randomElement(using: &rng) ?? "x"
            for (offset, entry) in entries.enumerated() {
                let order = Array(probe.utf8).withUnsafeBufferPointer { block.compareTripID(tid: 65 + offset, with: $0) }
                guard let entry else {
                    XCTAssertNil(order, "a gap, TEST_SEED=\(seed)")
                    continue
                }
                let expected = entry.tripID == probe ? 0 : entry.tripID.utf8.lexicographicallyPrecedes(probe.utf8) ? -1 : 1
                XCTAssertEqual(order.map { $0.signum() }, expected, "\(entry.tripID) against \(probe), TEST_SEED=\(seed)")
            }
        }
    }

    /// Seeded patterns of every shape (values of one to five varint bytes, up to 2^30 so
    /// that every difference fits the 32 bits a packed value has, optional fields absent or
    /// present, every code) decode to what was encoded; `forEach` meets the same records.
    func testRandomPatternStopsAndTripsDecodeToWhatWasEncoded() throws {
        let seed = SplitMix64.testSeed(0x5EED_0A77)
        var rng = SplitMix64(state: seed)
        func value(_ limit: Int) -> Int {
            switch rng.next() % 4 {
            case 0: Int(rng.next() % 64)
            case 1: Int(rng.next() % 16_384)
            case 2: limit - Int(rng.next() % 3)
            default: Int(rng.next() % UInt64(limit + 1))
            }
        }
        let big = 1 << 30 - 1
        for round in 0..<400 {
            let stops = (0..<Int(rng.next() % 40)).map { _ in
                PatternStopRecord(
                    stopSequence: value(big), sid: value(big), arrivalOffset: value(big), departureOffset: value(big),
                    pickupType: Int(rng.next() % 4), dropOffType: Int(rng.next() % 4), interpolated: rng.next() % 2 == 0,
                    approximate: rng.next() % 3 == 0, hid: rng.next() % 3 == 0 ? nil : value(big - 1))
            }
            let packedStops = PatternStopsBlob.encode(stops)
            XCTAssertEqual(try PatternStopsBlob.decode(packedStops), stops, "round \(round), TEST_SEED=\(seed)")
            var met: [PatternStopRecord] = []
            try PatternStopsBlob.forEach(in: packedStops) { met.append($0) }
            XCTAssertEqual(met, stops, "round \(round), TEST_SEED=\(seed)")
            let trips = PatternTripsBlob.canonicalOrder(
                (0..<Int(rng.next() % 40)).map { _ in
                    PatternTripRecord(
                        tid: value(big), startTime: value(big), sv: value(big), rid: value(big),
                        hid: rng.next() % 3 == 0 ? nil : value(big - 1), directionID: rng.next() % 3 == 0 ? nil : Int(rng.next() % 2),
                        wheelchairAccessible: Int(rng.next() % 3), frequency: rng.next() % 5 == 0,
                        shp: rng.next() % 3 == 0 ? nil : value(big - 1), bikesAllowed: Int(rng.next() % 3))
                })
            let packedTrips = PatternTripsBlob.encode(trips)
            XCTAssertEqual(try PatternTripsBlob.decode(packedTrips), trips, "round \(round), TEST_SEED=\(seed)")
            var tripsMet: [PatternTripRecord] = []
            try PatternTripsBlob.forEach(in: packedTrips) { tripsMet.append($0) }
            XCTAssertEqual(tripsMet, trips, "round \(round), TEST_SEED=\(seed)")
        }
    }

    func testIDGroupsKeepTidsAndStartWhereTheIdsSay() throws {
        let tids = [5, 6, 7, 900, 8, 1]
        XCTAssertEqual(try IDGroup.decode(IDGroup.encode(tids)), tids)
        XCTAssertEqual(IDGroup.encode([1, 2, 3]), [0x02, 0x02, 0x02], "+1 steps: one byte each")
        // Boundaries come from the ids alone: how full the group is (below the cap) does not matter.
        let ids = (0..<5_000).map { "trip-\($0)" }
        let starts = ids.filter { IDGroup.startsGroup(at: $0, count: 1) }
        XCTAssertEqual(starts, ids.filter { IDGroup.startsGroup(at: $0, count: 100) })
        XCTAssertTrue((60...150).contains(starts.count), "about one id in 48: \(starts.count)")
        XCTAssertTrue(IDGroup.startsGroup(at: ids[0], count: 0))
        XCTAssertTrue(IDGroup.startsGroup(at: ids[0], count: IDGroup.capacity))
    }

    /// Date sets take the smaller of a gap list and a bitmap; both read back exactly.
    func testDateSetsPickTheSmallerCodingAndReadBack() throws {
        XCTAssertEqual(DateSetBlob.encode([]), [])
        XCTAssertEqual(try DateSetBlob.decode([]), [])
        // Three holidays: a list (kind 0, first day, 2 more, gaps 7 and 40).
        let holidays = [20_500, 20_507, 20_547]
        XCTAssertEqual(DateSetBlob.encode(holidays), [0x00, 0x94, 0xA0, 0x01, 0x02, 0x07, 0x28])
        XCTAssertEqual(try DateSetBlob.decode(DateSetBlob.encode(holidays)), holidays)
        // Weekdays of a year: a bitmap of 365 bits (46 bytes) after 6 bytes of header (kind, first day, span).
        let weekdays = (0..<365).map { 20_454 + $0 }.filter { ($0 + 4) % 7 < 5 }
        let coded = DateSetBlob.encode(weekdays)
        XCTAssertEqual(coded.first, 1)
        XCTAssertEqual(coded.count, 6 + 46)
        XCTAssertEqual(try DateSetBlob.decode(coded), weekdays)
        // Random sets, duplicates and a single day, both codings.
        let seed = SplitMix64.testSeed(0x5EED_0002)
        var rng = SplitMix64(state: seed)
        for _ in 0..<500 {
            let count = Int(rng.next() % 200) + 1
            let spread = Int(rng.next() % 2000) + 1
            let days = (0..<count).map { _ in 19_000 + Int(rng.next() % UInt64(spread)) }
            XCTAssertEqual(try DateSetBlob.decode(DateSetBlob.encode(days)), Array(Set(days)).sorted(), "TEST_SEED=\(seed)")
        }
        for cut in 1..<coded.count { XCTAssertThrowsError(try DateSetBlob.decode(Array(coded.prefix(cut))), "cut at \(cut)") }
        XCTAssertThrowsError(try DateSetBlob.decode([0x02, 0x01]), "unknown kind")
        XCTAssertThrowsError(try DateSetBlob.decode([0x00, 0x01, 0x01, 0x00]), "a gap of zero days")
        XCTAssertThrowsError(try DateSetBlob.decode([0x01, 0x01, 0x08, 0x00]), "a bitmap whose first day is not set")
    }

    /// A feed whose calendar is all calendar_dates.txt (bench/calendar_feed.py: 300 services,
    /// about 50,000 rows over a year): the calendar's tables cost at most 2 bytes a row on
    /// disk (14 before the date sets), and every service runs on exactly its dates.
    func testACalendarDatesFeedCostsUnderTwoBytesARow() throws {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("calendar.zip").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.repository.appendingPathComponent("bench/calendar_feed.py").path, feed, "300", "3"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let output = folder.appendingPathComponent("c.db").path
        _ = try Compiler.compile(CompileRequest(feeds: [.init(name: "c", path: feed)], outputPath: output))
        let db = try SQLiteDatabase(path: output, writable: false)
        let rows = try XCTUnwrap(try db.scalarInt("SELECT count(*) FROM service_dates"))
        XCTAssertEqual(rows, 300)
        let bytes = try XCTUnwrap(
            try db.scalarInt("SELECT sum(pgsize) FROM dbstat WHERE name IN ('calendar', 'service_dates')"))
        // The feed's own rows, read back from the zip with unzip.
        func file(_ name: String) throws -> [[Substring]] {
            let unzip = Process()
            unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
            unzip.arguments = ["-p", feed, name]
            let pipe = Pipe()
            unzip.standardOutput = pipe
            try unzip.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            unzip.waitUntilExit()
            return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        }
        let dates = try file("calendar_dates.txt")
        XCTAssertGreaterThan(dates.count, 40_000)
        XCTAssertLessThanOrEqual(Double(bytes) / Double(dates.count), 2.0, "\(bytes) bytes for \(dates.count) rows")
        // A trip runs on exactly the dates its service lists.
        var datesOf: [Substring: Set<Substring>] = [:]
        for row in dates { datesOf[row[0], default: []].insert(row[1]) }
        let serviceOf = Dictionary(uniqueKeysWithValues: try file("trips.txt").map { ($0[2], $0[1]) })
        let bundle = try TransitBundle(path: output)
        var random = SplitMix64(state: 5)
        for _ in 0..<200 {
            let trip = "T\(random.next() % 300)"
            let day = CivilDate(yyyymmdd: 20_260_101)!.adding(days: Int(random.next() % 365))
            let runs = try bundle.trip(trip, on: ServiceDate(day.iso)!).runsOnDate
            let listed = datesOf[serviceOf[Substring(trip)]!]?.contains(Substring(String(day.yyyymmdd))) == true
            XCTAssertEqual(runs, listed, "\(trip) on \(day.iso)")
        }
    }

    func testDamagedBytesAreAnErrorNotACrash() throws {
        let good = PatternStopsBlob.encode([
            PatternStopRecord(
                stopSequence: 1, sid: 400, arrivalOffset: 0, departureOffset: 0, pickupType: 0, dropOffType: 0, interpolated: false,
                hid: 1)
        ])
        for cut in 1..<good.count {
            XCTAssertThrowsError(try PatternStopsBlob.decode(Array(good.prefix(cut))), "cut at \(cut)")
        }
        XCTAssertThrowsError(try PatternTripsBlob.decode([0x00, 0x80]), "a varint without its last byte")
        var tooLong = PackedReader([UInt8](repeating: 0xFF, count: 11))
        XCTAssertThrowsError(try tooLong.unsigned(), "longer than 64 bits")
        // Found by the packed fuzz target: deltas near the 64-bit limits overflowed their sum.
        let fuzzed: [UInt8] = [
            0x1E, 0x08, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x08, 0xA3, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xD0,
            0x03, 0x04, 0x01, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x08, 0x0C, 0x27, 0x7C, 0x00, 0x02, 0xB4, 0x08,
        ]
        _ = try? PatternStopsBlob.decode(fuzzed)
        _ = try? PatternTripsBlob.decode(fuzzed)
        _ = try? StopPatternsBlob.decode(fuzzed)
        _ = try? TripBlock.decode(firstTid: 1, fuzzed)
        XCTAssertThrowsError(try TripBlock.decode(firstTid: 1, [0x02, 0x00, 0x00, 0x00, 0x00]), "a reference before the first id")
        XCTAssertThrowsError(
            try TripBlock.decode(firstTid: 1, [0x01, 0x01, 0x41, 0x00, 0x02, 0x05, 0x00, 0x00, 0x00]), "prefix past the end")
        XCTAssertThrowsError(try TripBlock.decode(firstTid: 1, [0x01, 0x09, 0x41]), "fewer bytes than the length says")
        XCTAssertThrowsError(try TripBlock.decode(firstTid: 1, [UInt8](repeating: 0, count: 65)), "more slots than a block has")
        XCTAssertThrowsError(try IDGroup.decode([UInt8](repeating: 2, count: 129)), "more tids than a group has")
        XCTAssertThrowsError(try StopPatternsBlob.decode([0x05]))
    }

    /// The pointer reader the planner's first read and the trip blocks use reads what
    /// `PackedReader` reads, byte for byte: the same values, the same errors at the same
    /// places, on seeded bytes of every kind (short and long varints, continuation runs,
    /// cuts).
    func testThePointerReaderReadsWhatPackedReaderReads() throws {
        let seed = SplitMix64.testSeed(0x5EED_0B0F)
        var rng = SplitMix64(state: seed)
        for round in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &rng)).map { _ -> UInt8 in
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1: UInt8.random(in: 0..<0x80, using: &rng)
                case 2: 0x80
                case 3: 0xFF
                default: UInt8.random(in: 0...0xFF, using: &rng)
                }
            }
            var expected = PackedReader(bytes)
            let steps = (0..<12).map { _ in (Int.random(in: 0..<4, using: &rng), Int.random(in: -1..<6, using: &rng)) }
            bytes.withUnsafeBufferPointer { buffer in
                var r = PackedBufferReader(buffer)
                for (step, (kind, length)) in steps.enumerated() {
                    let context = "seed \(seed), round \(round), step \(step): \(bytes)"
                    let want: Int?
                    let got: Int?
                    switch kind {
                    case 0: (want, got) = (try? expected.unsigned(), try? r.unsigned())
                    case 1: (want, got) = (try? expected.signed(), try? r.signed())
                    case 2: (want, got) = (try? expected.count(), try? r.count())
                    default:
                        want = (try? expected.bytes(length)).map { _ in length }
                        got = (try? r.skip(length)).map { length }
                    }
                    XCTAssertEqual(got, want, context)
                    XCTAssertEqual(r.offset, expected.offset, context)
                    XCTAssertEqual(r.isAtEnd, expected.isAtEnd, context)
                    if want == nil { break }
                }
            }
        }
    }

    /// The planner reads a pattern's offsets straight from its packed stops: the same as
    /// the decoded records' on seeded patterns, and a cut pattern is an error.
    func testPlannerOffsetsAreTheDecodedStopsOffsets() throws {
        let seed = SplitMix64.testSeed(0x5EED_0FF5)
        var rng = SplitMix64(state: seed)
        var departures: [Int32] = [7]
        var arrivals: [Int32] = [7]
        for round in 0..<500 {
            var departure = Int.random(in: -3_600...100_000, using: &rng)
            let records = (0..<Int.random(in: 1...40, using: &rng)).map { i -> PatternStopRecord in
                departure += Int.random(in: 0...(i % 7 == 6 ? 90_000 : 900), using: &rng)
                return PatternStopRecord(
                    stopSequence: i * Int.random(in: 1...3, using: &rng), sid: Int.random(in: 1...300_000, using: &rng),
                    arrivalOffset: departure - Int.random(in: 0...120, using: &rng), departureOffset: departure,
                    pickupType: Int.random(in: 0...3, using: &rng), dropOffType: Int.random(in: 0...3, using: &rng),
                    interpolated: Bool.random(using: &rng), hid: Bool.random(using: &rng) ? Int.random(in: 1...9_999, using: &rng) : nil)
            }
            let bytes = PatternStopsBlob.encode(records)
            let decoded = try PatternStopsBlob.decode(bytes)
            let before = departures.count
            let count = try PatternStopsBlob.appendOffsets(of: bytes, departures: &departures, arrivals: &arrivals, maxSid: 300_000)
            XCTAssertEqual(count, records.count, "seed \(seed), round \(round)")
            XCTAssertEqual(departures[before...].map(Int.init), decoded.map(\.departureOffset), "seed \(seed), round \(round)")
            XCTAssertEqual(arrivals[before...].map(Int.init), decoded.map(\.arrivalOffset), "seed \(seed), round \(round)")
            XCTAssertEqual([departures[0], arrivals[0]], [7, 7], "what was there before stays")
            XCTAssertThrowsError(
                try PatternStopsBlob.appendOffsets(
                    of: bytes, departures: &departures, arrivals: &arrivals, maxSid: records.map(\.sid).max()! - 1),
                "seed \(seed), round \(round): a stop past maxSid")
            let cut = Array(bytes.dropLast())
            XCTAssertThrowsError(
                try PatternStopsBlob.appendOffsets(of: cut, departures: &departures, arrivals: &arrivals, maxSid: 300_000),
                "seed \(seed), round \(round): cut")
            departures.removeSubrange(before...)
            arrivals.removeSubrange(before...)
        }
    }

    /// Decoded records keep ids and times in 32 bits: deltas that each fit but whose sum
    /// does not (only a damaged column has them) are an error, not a trap.
    func testSumsPastThirtyTwoBitsAreDamage() throws {
        XCTAssertEqual(MemoryLayout<PatternStopRecord>.size, 24)
        XCTAssertEqual(MemoryLayout<PatternTripRecord>.size, 28)
        let step = 1 << 30 - 1
        var stops = PackedWriter()
        for _ in 0..<3 {
            stops.unsigned(0)
            stops.signed(step)
            stops.signed(0)
        }
        XCTAssertThrowsError(try PatternStopsBlob.decode(stops.bytes), "sid past 2^31") { XCTAssertTrue($0 is PackedReader.Damaged) }
        XCTAssertEqual(try PatternStopsBlob.decode(Array(stops.bytes.prefix(stops.bytes.count * 2 / 3))).last?.sid, 2 * step)
        var trips = PackedWriter()
        for _ in 0..<3 {
            trips.unsigned(0)
            trips.signed(0)
            trips.signed(step)
        }
        XCTAssertThrowsError(try PatternTripsBlob.decode(trips.bytes), "start past 2^31") { XCTAssertTrue($0 is PackedReader.Damaged) }
        var wide = PackedWriter()
        wide.unsigned(32)
        wide.signed(1)
        wide.signed(0)
        wide.unsigned(300)
        XCTAssertThrowsError(try PatternTripsBlob.decode(wide.bytes), "wheelchair code over a byte") {
            XCTAssertTrue($0 is PackedReader.Damaged)
        }
        var block = PackedWriter()
        for _ in 0..<3 {
            block.unsigned(1)
            block.unsigned(1)
            block.append(contentsOf: [0x41])
            block.signed(step)
        }
        XCTAssertThrowsError(try TripBlock.decode(firstTid: 1, block.bytes), "pid past 2^31") { XCTAssertTrue($0 is PackedReader.Damaged) }
    }

    /// A block keeps its ids as bytes and makes the one asked for; gaps and tids outside
    /// the block have none.
    func testATripBlockAnswersEachTidAndNoOther() throws {
        let entries: [TripBlock.Entry?] = [
            TripBlock.Entry(tripID: "A-1", pid: 4), nil, TripBlock.Entry(tripID: "A-2", pid: 4),
            TripBlock.Entry(tripID: "ligne é 7", pid: 9), TripBlock.Entry(tripID: "", pid: 2),
        ]
        let block = try TripBlock.decode(firstTid: 65, TripBlock.encode(entries))
        XCTAssertEqual(block.entries, entries)
        XCTAssertEqual(block.entry(tid: 68), TripBlock.Entry(tripID: "ligne é 7", pid: 9))
        XCTAssertEqual(block.entry(tid: 69), TripBlock.Entry(tripID: "", pid: 2))
        XCTAssertNil(block.entry(tid: 66))
        XCTAssertNil(block.entry(tid: 64))
        XCTAssertNil(block.entry(tid: 70))
        XCTAssertEqual(TripBlock(firstTid: 65, entries: entries).entries, entries)
    }
}

extension PackedColumnTests {
    /// A bundle whose packed columns were damaged after compiling answers with an error.
    func testADamagedBundleAnswersWithAnErrorNotACrash() throws {
        let copy = TemporaryFolders.make().appendingPathComponent("damaged.db").path
        try FileManager.default.copyItem(atPath: TestSupport.sampleBundlePath, toPath: copy)
        let db = try SQLiteDatabase(path: copy, writable: true)
        try db.execute("UPDATE patterns SET trips = x'0080'; UPDATE trip_blocks SET entries = x'0009'")
        let bundle = try TransitBundle(path: copy)
        let at = try QueryTime.parse("2026-03-30T08:00")
        for query in [
            { _ = try bundle.departures(from: "CENTRAL", at: at) },
            { _ = try bundle.trip("T4_WK_0800", on: ServiceDate("2026-03-30")!) },
        ] {
            XCTAssertThrowsError(try query()) {
                guard case .corruptBundle(let reason)? = $0 as? TransitError else { return XCTFail("\($0)") }
                XCTAssertTrue(reason.contains("damaged"), reason)
            }
        }
    }
}
