import Foundation
import TransitRuntime
import TransitSQLite

// The structure-aware bundle fuzzer (`FUZZ_TARGET=bundle`), part of the runtime harness that
// Fuzz/run.sh builds. Each input is a list of edits to a copy of a real bundle
// (FUZZ_BUNDLE): an integer column of a row set to an extreme or to bytes of the input, a
// real column to an infinity, a huge or a negative value, a text column to a long text, a
// packed column cut, emptied or with a byte flipped, a table swapped for a view. The copy
// is then opened and asked every kind of question (boards, journeys step-free and at the
// slowest walking speed, their fares). An answer or a `TransitError` is fine;
// a trap, a hang (libFuzzer's -timeout) or a blow-up (-rss_limit_mb) is a finding.

private struct Column {
    let table: String
    let name: String
    let type: String
    let rows: Int
    var isBlob: Bool { type == "BLOB" }
}

private let bundleColumns: [Column] = {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"], let db = try? SQLiteDatabase(path: path, writable: false)
    else { fatalError("FUZZ_BUNDLE does not open") }
    var tables: [String] = []
    let list = try! db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' "
            + "AND name NOT LIKE '%fts_%' ORDER BY name")
    while try! list.step() { tables.append(list.string(0)) }
    var columns: [Column] = []
    for table in tables {
        let rows = (try? db.scalarInt("SELECT count(*) FROM \(table)")) ?? 0
        guard rows > 0 else { continue }
        let info = try! db.prepare("PRAGMA table_info(\(table))")
        while try! info.step() {
            let type = info.string(2).uppercased()
            if ["INTEGER", "BLOB", "REAL", "TEXT"].contains(type) {
                columns.append(Column(table: table, name: info.string(1), type: type, rows: rows))
            }
        }
    }
    return columns
}()

private let extremes: [Int64] = [0, -1, 1, 1 << 31, Int64(Int32.max), Int64(Int32.min), Int64.max, Int64.min, 1 << 40, 86_400 * 365]
private let scratchBundle = NSTemporaryDirectory() + "bundle-fuzz-\(getpid()).db"
/// Six stops some pattern serves, spread over the bundle's stops.
private let askedStops: [String] = {
    guard let path = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"], let db = try? SQLiteDatabase(path: path, writable: false),
        let q = try? db.prepare("SELECT s.stop_id FROM stops s JOIN stop_patterns p ON p.sid = s.sid ORDER BY s.sid")
    else { return [] }
    var served: [String] = []
    while (try? q.step()) == true { served.append(q.string(0)) }
    return served.isEmpty ? [] : (0..<6).map { served[$0 * (served.count - 1) / 5] }
}()

/// Reads the input as edits of 12 bytes: column, row, kind, and a 64-bit value.
func fuzzBundle(_ bytes: [UInt8]) {
    guard let source = ProcessInfo.processInfo.environment["FUZZ_BUNDLE"], !bytes.isEmpty, !bundleColumns.isEmpty, askedStops.count == 6
    else { return }
    try? FileManager.default.removeItem(atPath: scratchBundle)
    guard (try? FileManager.default.copyItem(atPath: source, toPath: scratchBundle)) != nil,
        let db = try? SQLiteDatabase(path: scratchBundle, writable: true)
    else { return }
    var at = 0
    func next(_ count: Int) -> [UInt8] {
        defer { at += count }
        return (0..<count).map { at + $0 < bytes.count ? bytes[at + $0] : 0 }
    }
    for _ in 0..<8 where at < bytes.count {
        let head = next(4)
        let column = bundleColumns[Int(head[0]) % bundleColumns.count]
        let row = (Int(head[1]) << 8 | Int(head[2])) % column.rows
        let raw = next(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let target = "rowid = (SELECT rowid FROM \(column.table) LIMIT 1 OFFSET \(row))"
        let sql: String
        switch (head[3] % 8, column.isBlob) {
        case (_, false) where column.type == "REAL":
            sql =
                "UPDATE OR IGNORE \(column.table) SET \(column.name) = \(["1e999", "-1e999", "1e300", "-5"][Int(head[3] % 4)]) WHERE \(target)"
        case (_, false) where column.type == "TEXT":
            sql = "UPDATE OR IGNORE \(column.table) SET \(column.name) = printf('%.*c', \(raw & 0xFFFFF), 'x') WHERE \(target)"
        case (7, _): sql = "ALTER TABLE \(column.table) RENAME TO old_t; CREATE VIEW \(column.table) AS SELECT * FROM old_t"
        case (_, true):
            switch head[3] % 4 {
            case 0: sql = "UPDATE \(column.table) SET \(column.name) = substr(\(column.name), 1, \(raw & 0xFF)) WHERE \(target)"
            case 1: sql = "UPDATE \(column.table) SET \(column.name) = x'' WHERE \(target)"
            case 2:
                let offset = raw & 0xFFFF
                sql =
                    "UPDATE \(column.table) SET \(column.name) = substr(\(column.name), 1, \(offset)) || x'\(String(format: "%02x", UInt8(truncatingIfNeeded: raw >> 16)))' || substr(\(column.name), \(offset + 2)) WHERE \(target)"
            default: sql = "UPDATE \(column.table) SET \(column.name) = randomblob(\(raw & 0x3FF)) WHERE \(target)"
            }
        case (let kind, false):
            let value = kind < 4 ? extremes[Int(UInt64(bitPattern: raw) % UInt64(extremes.count))] : raw
            sql = "UPDATE OR IGNORE \(column.table) SET \(column.name) = \(value) WHERE \(target)"
        }
        // A rowid-less table (metadata, transfers, ...) takes the edit on all its rows.
        do { try db.execute(sql) } catch { try? db.execute(sql.replacingOccurrences(of: " WHERE \(target)", with: "")) }
    }
    guard let bundle = try? TransitBundle(path: scratchBundle) else { return }
    askEverything(bundle)
}

/// Every kind of question, each allowed to fail with an error.
private func askEverything(_ bundle: TransitBundle) {
    _ = try? bundle.info()
    let days = (try? bundle.info().coverage.firstServiceDate).flatMap { $0 }
    let at: QueryTime =
        days.flatMap { try? QueryTime.parse($0.description + "T08:00") } ?? .instant(Date(timeIntervalSince1970: 1_700_000_000))
    for stop in askedStops {
        _ = try? bundle.departures(from: stop, at: at, within: 3 * 3600)
        _ = try? bundle.arrivals(to: [stop], at: at, within: 3600)
        _ = try? bundle.routes(servingStop: stop)
    }
    _ = try? bundle.stops(matching: "st")
    _ = try? bundle.nearestStops(to: Coordinate(latitude: 37.79, longitude: -122.40), count: 5)
    for journey in (try? bundle.journeys(from: .stop(askedStops[0]), to: .stop(askedStops[1]), departingAt: at)) ?? [] {
        _ = try? bundle.fare(of: journey)
    }
    var slow = JourneyOptions()
    (slow.wheelchair, slow.walkingSpeed) = (true, 0.100000001)
    _ = try? bundle.journeys(from: .stop(askedStops[2]), to: .stop(askedStops[3]), departingAt: at, options: slow)
    _ = try? bundle.journeys(from: .stop(askedStops[0]), to: .stop(askedStops[5]), arrivingBy: at)
    // A range: its searches prune by the later departures' labels (three, a fuzz run's budget).
    _ = try? bundle.journeyRange(
        from: .stop(askedStops[1]), to: .stop(askedStops[0]), departingAt: at, within: 3600, options: JourneyOptions(rangeSearches: 3))
    if let route = try? bundle.routes().first {
        _ = try? bundle.route(route.routeID)
        _ = try? bundle.shapes(route: route.routeID)
    }
    if let trip = (try? bundle.departures(from: askedStops[0], at: at, within: 3 * 3600))?.first {
        _ = try? bundle.trip(trip.tripID, on: trip.serviceDate)
        _ = try? bundle.shape(trip: trip.tripID)
    }
}
