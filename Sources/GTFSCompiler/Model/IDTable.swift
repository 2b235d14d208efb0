/// Integer ids for keys of one kind (a stop by feed and stop_id, a pattern by its content,
/// a headsign by its text): a key seen before keeps its id, in this compile or in the base
/// bundle of `--base`; a new key takes the next id after every id given so far. Without a
/// base, ids are 1, 2, 3... in the order keys are first asked for.
struct IDTable<Key: Hashable> {
    private var ids: [Key: Int]
    private var next: Int

    init(base: [Key: Int] = [:]) {
        ids = base
        next = (base.values.max() ?? 0) + 1
    }

    /// The keys the table holds (after `init(base:)`: the base bundle's).
    var baseKeys: Dictionary<Key, Int>.Keys { ids.keys }

    mutating func id(_ key: Key) -> Int {
        if let id = ids[key] { return id }
        ids[key] = next
        next += 1
        return next - 1
    }

    /// The id of a key asked for once in a compile (a stop or a trip of a feed): the base's,
    /// or the next one, not remembered (a plain compile keeps no table of its trip ids).
    mutating func id(unique key: Key) -> Int {
        if let id = ids[key] { return id }
        next += 1
        return next - 1
    }
}

/// A text id within a feed: the key of stops, routes, services, trips and agencies.
struct FeedTextKey: Hashable {
    var feed: String
    var text: String
}
