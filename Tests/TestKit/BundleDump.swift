import BundleFormat
import TransitSQLite

/// Every trip of a bundle decoded from its packed columns, for tests that compare
/// bundles or check what the compiler stored.
package struct BundleDump {
    package struct Trip: Equatable {
        package var tripID: String
        package var pid: Int
        package var record: PatternTripRecord
        package var stops: [PatternStopRecord]
        /// stop_id of each stop, in order.
        package var stopIDs: [String]
    }

    /// By trip_id, then feed.
    package let trips: [Trip]

    package init(path: String) throws {
        let db = try SQLiteDatabase(path: path, writable: false)
        var stopIDs: [Int: String] = [:]
        let stops = try db.prepare("SELECT sid, stop_id FROM stops")
        while try stops.step() { stopIDs[stops.int(0)] = stops.string(1) }
        var patterns: [Int: (stops: [PatternStopRecord], trips: [PatternTripRecord])] = [:]
        let rows = try db.prepare("SELECT pid, stops, trips FROM patterns")
        while try rows.step() {
            patterns[rows.int(0)] = (try PatternStopsBlob.decode(rows.blob(1)), try PatternTripsBlob.decode(rows.blob(2)))
        }
        var trips: [Trip] = []
        let blocks = try db.prepare("SELECT first_tid, entries FROM trip_blocks ORDER BY first_tid")
        while try blocks.step() {
            let block = try TripBlock.decode(firstTid: blocks.int(0), blocks.blob(1))
            for (i, slot) in block.entries.enumerated() {
                guard let entry = slot else { continue }
                let tid = block.firstTid + i
                guard let pattern = patterns[entry.pid], let record = pattern.trips.first(where: { $0.tid == tid }) else {
                    throw PackedReader.Damaged()
                }
                trips.append(
                    Trip(
                        tripID: entry.tripID, pid: entry.pid, record: record, stops: pattern.stops,
                        stopIDs: pattern.stops.map { stopIDs[$0.sid] ?? "?" }))
            }
        }
        self.trips = trips.sorted { $0.tripID < $1.tripID }
    }

    package func trip(_ id: String) -> Trip? { trips.first { $0.tripID == id } }
}
