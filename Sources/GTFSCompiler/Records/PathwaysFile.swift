import BundleFormat

/// pathways.txt: the walkways, stairs, escalators, elevators and gates inside stations,
/// between their platforms, entrances, generic nodes and boarding areas. A row naming an
/// unknown stop or a station, without a mode or direction, is dropped with a warning.
enum PathwaysFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["pathway_id", "from_stop_id", "to_stop_id", "pathway_mode", "is_bidirectional"]) else { return }
        let id = t.column("pathway_id")
        let from = t.column("from_stop_id")
        let to = t.column("to_stop_id")
        let mode = t.column("pathway_mode")
        let bidirectional = t.column("is_bidirectional")
        let length = t.column("length")
        let time = t.column("traversal_time")
        let stairs = t.column("stair_count")
        var seen = Set<String>()
        while try t.next() {
            guard let key = t.requiredID(id, "pathway_id") else { continue }
            let pathwayID = String(decoding: key, as: UTF8.self)
            guard seen.insert(pathwayID).inserted else {
                t.warn(.duplicateID, column: id, entity: pathwayID, message: "pathway_id defined twice; the first wins")
                continue
            }
            var ends: [Int32] = []
            for column in [from, to] {
                guard let stop = feed.stopIDs.find(t.bytes(column)) else {
                    t.unknownReference(column: column, to: ["stops.txt"], entity: pathwayID, message: "names no stop; pathway dropped")
                    break
                }
                guard feed.stops[Int(stop)].locationType != 1 else {
                    t.warn(
                        .badValue, column: column, entity: pathwayID,
                        message: "a pathway joins platforms, entrances, nodes and boarding areas, not a station; pathway dropped")
                    break
                }
                ends.append(stop)
            }
            guard ends.count == 2 else { continue }
            guard let kind = t.optionalInteger(mode, in: 1...7, entity: pathwayID) else {
                if t.isEmpty(mode) {
                    t.warn(.missingValue, column: mode, entity: pathwayID, message: "pathway_mode is empty; pathway dropped")
                }
                continue
            }
            guard var twoWay = t.optionalInteger(bidirectional, in: 0...1, entity: pathwayID) else {
                if t.isEmpty(bidirectional) {
                    t.warn(.missingValue, column: bidirectional, entity: pathwayID, message: "is_bidirectional is empty; pathway dropped")
                }
                continue
            }
            if kind == 7 && twoWay == 1 {
                t.warn(.badValue, column: bidirectional, entity: pathwayID, message: "an exit gate is one-way; read as 0")
                twoWay = 0
            }
            var metres: Double?
            if !t.isEmpty(length) {
                if let value = FieldParser.double(t.bytes(length)), value >= 0, value < 100_000,
                    BundleLimits.pathwayDecimetres.contains(Int((value * 10).rounded()))
                {
                    metres = value
                } else {
                    t.warn(
                        .badValue, column: length, entity: pathwayID, message: "length is not a non-negative number of metres; left empty")
                }
            }
            feed.pathways.append(
                .init(
                    from: ends[0], to: ends[1], mode: kind, isBidirectional: twoWay == 1,
                    traversalTime: t.optionalInteger(time, in: BundleLimits.pathwaySeconds, entity: pathwayID), length: metres,
                    stairCount: t.optionalInteger(stairs, in: BundleLimits.pathwayStairs, entity: pathwayID)))
        }
    }
}
