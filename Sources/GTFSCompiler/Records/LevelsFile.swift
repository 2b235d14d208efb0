/// levels.txt: the floors of stations (an index, 0 the street, negative below it, and a
/// name riders see), which stops name by level_id.
enum LevelsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["level_id", "level_index"]) else { return }
        let id = t.column("level_id")
        let index = t.column("level_index")
        let name = t.column("level_name")
        while try t.next() {
            guard let key = t.requiredID(id, "level_id") else { continue }
            let levelID = String(decoding: key, as: UTF8.self)
            guard let value = FieldParser.double(t.bytes(index)), value.isFinite, abs(value) < 1_000 else {
                t.warn(
                    .badValue, column: index, entity: levelID,
                    message: "level_index is not a number (floors from the street); level dropped")
                continue
            }
            let local = Int(feed.levelIDs.intern(key).id)
            if feed.levels.count <= local { feed.levels += Array(repeating: nil, count: local + 1 - feed.levels.count) }
            guard feed.levels[local] == nil else {
                t.warn(.duplicateID, column: id, entity: levelID, message: "level_id defined twice; the first wins")
                continue
            }
            feed.levels[local] = .init(index: value, name: t.text(name))
        }
    }
}
