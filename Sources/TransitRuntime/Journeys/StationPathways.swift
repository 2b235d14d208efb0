import BundleFormat
import TransitSQLite

/// The pathways inside stations (pathways.txt), as the planner walks them: how long a
/// change between two platforms of a station takes along them, for everyone or step-free
/// (no stairs, no escalators), by the rules of journey-semantics.md ("Inside stations").
struct StationPathways: Sendable {
    struct Edge: Sendable {
        let to: Int32
        let mode: UInt8
        let traversalTime: Int32
        /// Metres, -1 when not given.
        let length: Float
        let stairCount: Int32
    }

    /// The pathway modes a wheelchair cannot take: stairs (2) and escalators (4).
    static let stepModes: Set<UInt8> = [2, 4]

    /// An entrance (location_type 2) on the pathways, where a walk from the street enters.
    struct Entrance: Sendable {
        let sid: Int32
        let latitude: Double
        let longitude: Double
    }

    /// Edges leaving each node (a boarding area stands for its platform), and the same
    /// edges arriving at each node (walked backwards).
    private let edges: [Int32: [Edge]]
    private let backEdges: [Int32: [Edge]]
    /// The platform each boarding area (location_type 4) belongs to.
    private let platformOf: [Int32: Int32]
    private let entrances: [Entrance]
    /// The stations that have an entrance on their pathways: their stops are reached from
    /// the street through one.
    private let stationsWithEntrances: Set<Int32>

    var isEmpty: Bool { edges.isEmpty }

    /// No pathways (a bundle without pathways.txt).
    init() {
        self.init(edges: [:], backEdges: [:], platformOf: [:], entrances: [], stationsWithEntrances: [])
    }

    private init(
        edges: [Int32: [Edge]], backEdges: [Int32: [Edge]], platformOf: [Int32: Int32], entrances: [Entrance],
        stationsWithEntrances: Set<Int32>
    ) {
        self.edges = edges
        self.backEdges = backEdges
        self.platformOf = platformOf
        self.entrances = entrances
        self.stationsWithEntrances = stationsWithEntrances
    }

    /// The most rows `pathways` may hold (the largest real feed here has 2,963): more is a
    /// damaged bundle, refused before anything is built from them.
    static let maxRows = 1_000_000
    /// The most edges the pathway searches of one transfer graph may take (each edge
    /// followed once per search): past it the journey is refused as a damaged bundle, not
    /// worked out for minutes (a graph of a real feed takes tens of thousands).
    static let graphBudget = 20_000_000
    /// The most edges one query's own pathway searches may take (entrances, walk legs).
    static let queryBudget = 2_000_000

    /// Reads pathways.txt's rows, each checked as the compiler writes them (docs/runtime.md,
    /// "Checks"): stops within 1...`maxSid`, traversal_time, length and stair_count within
    /// `BundleLimits`; any other value is a damaged bundle. A pathway between two stations' stops is not walked (a change inside a
    /// station takes that station's pathways): `station` tells a stop's station.
    init(db: SQLiteDatabase, maxSid: Int, station: (Int) -> Int) throws {
        func damaged(_ what: String) -> TransitError { .corruptBundle(reason: "pathways: \(what)") }
        // pathways is an optional table (BundleSchema.optionalTables): without it, none.
        let present = try db.hasTable("pathways")
        let count = present ? try db.scalarInt("SELECT COUNT(*) FROM pathways") ?? 0 : 0
        guard count <= Self.maxRows else { throw damaged("\(count) rows (at most \(Self.maxRows))") }
        var platformOf: [Int32: Int32] = [:]
        let areas = try db.prepare("SELECT sid, parent_sid FROM stops WHERE location_type = 4 AND parent_sid IS NOT NULL")
        // Ids outside the stops (a damaged bundle) are left out, never trapped on.
        while try areas.step() {
            guard let area = Int32(exactly: areas.int(0)), let platform = Int32(exactly: areas.int(1)),
                (1...maxSid).contains(Int(platform))
            else { continue }
            platformOf[area] = platform
        }
        var edges: [Int32: [Edge]] = [:]
        let rows = try db.prepare(
            present
                ? "SELECT pathway, from_sid, to_sid, mode, is_bidirectional, traversal_time, length_dm, stair_count FROM pathways ORDER BY pathway"
                : "SELECT 0, 0, 0, 0, 0, NULL, NULL, NULL WHERE 0")
        while try rows.step() {
            let (id, a, b) = (rows.int(0), rows.int(1), rows.int(2))
            guard (1...maxSid).contains(a), (1...maxSid).contains(b) else {
                throw damaged("pathway \(id) from stop \(a) to stop \(b) names no stop")
            }
            let time = rows.optionalInt(5)
            let lengthDm = rows.optionalInt(6)
            let stairCount = rows.optionalInt(7)
            for (name, value, range) in [
                ("traversal_time", time, BundleLimits.pathwaySeconds), ("length_dm", lengthDm, BundleLimits.pathwayDecimetres),
                ("stair_count", stairCount, BundleLimits.pathwayStairs),
            ] {
                if let value, !range.contains(value) {
                    throw damaged("pathway \(id) has \(name) \(value) (\(range.lowerBound) to \(range.upperBound))")
                }
            }
            let from = platformOf[Int32(a)] ?? Int32(a)
            let to = platformOf[Int32(b)] ?? Int32(b)
            guard from != to, (1...7).contains(rows.int(3)), station(Int(from)) == station(Int(to)) else { continue }
            let mode = UInt8(rows.int(3))
            let length = lengthDm.map { Float($0) / 10 } ?? -1
            let stairs = Int32(stairCount ?? 0)
            edges[from, default: []].append(Edge(to: to, mode: mode, traversalTime: Int32(time ?? -1), length: length, stairCount: stairs))
            if rows.int(4) == 1 {
                edges[to, default: []].append(
                    Edge(to: from, mode: mode, traversalTime: Int32(time ?? -1), length: length, stairCount: -stairs))
            }
        }
        self.edges = edges
        self.platformOf = platformOf
        backEdges = Self.flipped(edges)
        var entrances: [Entrance] = []
        var stations = Set<Int32>()
        let rows2 = try db.prepare(
            "SELECT sid, parent_sid, lat_e7, lon_e7 FROM stops WHERE location_type = 2 AND lat_e7 IS NOT NULL AND lon_e7 IS NOT NULL")
        while try rows2.step() {
            guard let sid = Int32(exactly: rows2.int(0)), edges[sid] != nil || backEdges[sid] != nil else { continue }
            entrances.append(
                Entrance(sid: sid, latitude: StopGrid.degrees(rows2.int(2)), longitude: StopGrid.degrees(rows2.int(3))))
            if let station = rows2.optionalInt(1).flatMap({ Int32(exactly: $0) }) { stations.insert(station) }
        }
        self.entrances = entrances
        stationsWithEntrances = stations
    }

    /// Each edge from B to A.
    private static func flipped(_ edges: [Int32: [Edge]]) -> [Int32: [Edge]] {
        var flipped: [Int32: [Edge]] = [:]
        for (from, list) in edges {
            for edge in list {
                flipped[edge.to, default: []].append(
                    Edge(to: from, mode: edge.mode, traversalTime: edge.traversalTime, length: edge.length, stairCount: -edge.stairCount))
            }
        }
        return flipped
    }

    /// Whether `sid`, of station `station`, is reached from the street only through the
    /// station's entrances.
    func isBehindEntrances(_ sid: Int, station: Int) -> Bool {
        stationsWithEntrances.contains(Int32(station)) && contains(sid)
    }

    /// The stops reached from a point through the entrances within `distance` metres of it
    /// (`toPoint`: the stops from which the point is reached through them): per stop, the
    /// quickest walk to an entrance plus the path inside, and the walk's metres.
    /// The searches take at most `queryBudget` edges in all (a damaged bundle past it).
    func throughEntrances(
        latitude: Double, longitude: Double, within distance: Double, walkingSpeed: Double, stepFree: Bool, toPoint: Bool
    ) throws -> [Int32: (seconds: Int, metres: Double)] {
        var best: [Int32: (seconds: Int, metres: Double)] = [:]
        var budget = Self.queryBudget
        for entrance in entrances {
            let metres = GeoDistance.metres(latitude, longitude, entrance.latitude, entrance.longitude)
            guard metres <= distance else { continue }
            let walk = Int((metres / walkingSpeed).rounded(.up))
            var inside = try times(
                from: Int(entrance.sid), walkingSpeed: walkingSpeed, stepFree: stepFree, backwards: toPoint, budget: &budget)
            inside[entrance.sid] = 0
            for (node, seconds) in inside where walk + seconds < best[node]?.seconds ?? .max {
                best[node] = (walk + seconds, metres)
            }
        }
        return best
    }

    /// Whether `sid` is a node of some station's pathways.
    func contains(_ sid: Int) -> Bool { edges[Int32(sid)] != nil || backEdges[Int32(sid)] != nil }

    /// Seconds to take `edge` at `walkingSpeed` (journey-semantics.md): its traversal_time,
    /// else its length walked, else 1 s a stair, 30 s for an escalator or stairs of unknown
    /// count, 60 s for an elevator, 10 s for anything else.
    static func seconds(_ edge: Edge, walkingSpeed: Double) -> Int {
        if edge.traversalTime > 0 { return Int(edge.traversalTime) }
        if edge.length >= 0 { return Int((Double(edge.length) / walkingSpeed).rounded(.up)) }
        switch edge.mode {
        case 2: return edge.stairCount != 0 ? Int(edge.stairCount.magnitude) : 30
        case 4: return 30
        case 5: return 60
        default: return 10
        }
    }

    /// The quickest time along the pathways from node `from` to every node it reaches
    /// (Dijkstra), step-free: without stairs and escalators; `backwards`: from every node
    /// that reaches `from`. Empty when `from` has none. Each edge followed takes one of
    /// `budget`; when none is left the search is refused as a damaged bundle (pathways no
    /// station has: docs/runtime.md, "Checks").
    func times(from: Int, walkingSpeed: Double, stepFree: Bool, backwards: Bool = false, budget: inout Int) throws -> [Int32: Int] {
        let start = Int32(from)
        let edges = backwards ? backEdges : self.edges
        guard edges[start] != nil else { return [:] }
        var best: [Int32: Int] = [start: 0]
        // A binary heap of (seconds, node).
        var heap: [(Int, Int32)] = [(0, start)]
        func push(_ item: (Int, Int32)) {
            heap.append(item)
            var i = heap.count - 1
            while i > 0, heap[(i - 1) / 2].0 > heap[i].0 {
                heap.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }
        func pop() -> (Int, Int32) {
            let top = heap[0]
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < heap.count, heap[l].0 < heap[m].0 { m = l }
                if r < heap.count, heap[r].0 < heap[m].0 { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
            return top
        }
        while !heap.isEmpty {
            let (seconds, node) = pop()
            guard seconds == best[node] else { continue }
            let out = edges[node] ?? []
            budget -= out.count
            guard budget >= 0 else {
                throw TransitError.corruptBundle(reason: "pathways: walking them takes more steps than a search may take")
            }
            for edge in out where !(stepFree && Self.stepModes.contains(edge.mode)) {
                let next = seconds + Self.seconds(edge, walkingSpeed: walkingSpeed)
                if next < best[edge.to] ?? .max {
                    best[edge.to] = next
                    push((next, edge.to))
                }
            }
        }
        best[start] = nil
        return best
    }
}

extension StationPathways {
    /// The same pathways walked backwards (for the arrive-by mirror): each edge from B to A.
    func reversed() -> StationPathways {
        StationPathways(
            edges: backEdges, backEdges: edges, platformOf: platformOf, entrances: entrances, stationsWithEntrances: stationsWithEntrances)
    }
}
