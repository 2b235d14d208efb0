import BundleFormat
import TransitSQLite

/// The far end of each journey (journey-semantics.md, "What is optimal"): a depart-at
/// journey leaves as late as it can and still keeps its arrival and rides (no pointless
/// waiting at the origin), an arrive-by journey arrives as early as it can and still keeps
/// its departure and rides. The first search fixes one end of each Pareto point; a second
/// search in the other direction, from that end and with at most its rides, finds the other.
extension JourneyPlanner {
    /// Each depart-at journey (told forwards) leaving as late as it can: for k rides arriving
    /// at A, the latest departure arriving by A with at most k rides, by a search in the
    /// mirror from the destination at A that leaves no earlier than the journey (which bounds
    /// it). That journey has k rides and arrives at A (one with fewer rides, or arriving
    /// earlier, would be in the answer). Among those that leave then too, the first by the
    /// order of ties (`RaptorSearch.tieBroken`, on `forward`'s trips), which also limits the
    /// search by what `forward` proved (`RaptorSearch.Limits.caps`). Not `moving` (a range, whose
    /// window ends each departure and whose searches were cut by one another, so prove no
    /// caps): each keeps its departure and only its ties are broken.
    func latestDepartures(
        _ found: [RaptorSearch.Found], moving: Bool = true, forward: RaptorSearch, from: JourneyEndpoint, to: JourneyEndpoint, start: Int
    ) throws -> [RaptorSearch.Found] {
        guard let lastArrival = found.map(\.arrival).max(), found.contains(where: { $0.rides > 0 }) else { return found }
        var search = try self.search(mirrored: true, days: try days(from: start, to: lastArrival, mirrored: true))
        defer { recycle(&search) }
        let limits = RaptorSearch.Limits(caps: moving ? forward.capsForTheOtherDirection : [])
        let targets = from.secondsBySid
        let destination = to.secondsBySid
        let texts = tieTexts()
        return try found.map { journey in
            guard journey.rides > 0 else { return journey }
            let origins = to.origins(readyAt: -journey.arrival)
            // Leaving no earlier than the journey found (in the mirror: arriving no later),
            // with at most its rides.
            let bound = [Int](repeating: -Self.departure(of: journey) + 1, count: journey.rides + 1)
            // Not moving, the origin is no target: a later departure found would cut the
            // labels between the two departures short. The journeys whose labels the ties
            // read still end there.
            let latest = search.run(
                origins: origins, targets: moving ? targets : [:], bound: bound, endingAt: Array(targets.keys), limits: limits
            ).last
            var late = journey
            if moving, let latest {
                late = RaptorSearch.unmirrored(latest, in: network, added: search.added)
                guard late.rides == journey.rides && late.arrival == journey.arrival else { return journey }
            }
            return try forward.tieBroken(
                late, departure: Self.departure(of: late), origins: targets, targets: destination, latest: search, texts: texts)
        }
    }

    /// Each arrive-by journey arriving as early as it can: for k rides leaving at D, the
    /// earliest arrival of a journey leaving at D or later with at most k rides, by a search
    /// forwards from the origin at D that arrives no later than the journey. That journey
    /// has k rides and leaves at D. Among those that arrive then too, the first by the order
    /// of ties: `mirror` runs again from the destination at that arrival for
    /// `RaptorSearch.tieBroken`.
    func earliestArrivals(
        _ found: [RaptorSearch.Found], caps: [RaptorSearch.BestLabels], mirror: inout RaptorSearch, from: JourneyEndpoint,
        to: JourneyEndpoint, end: Int
    ) throws -> [RaptorSearch.Found] {
        let departures = found.filter { $0.rides > 0 }.map(Self.departure(of:))
        guard let firstDeparture = departures.min() else { return found }
        var search = try self.search(mirrored: false, days: try days(from: firstDeparture, to: end, mirrored: false))
        defer { recycle(&search) }
        let origin = from.secondsBySid
        let targets = to.secondsBySid
        let texts = tieTexts()
        return try found.map { journey in
            guard journey.rides > 0 else { return journey }
            let departure = Self.departure(of: journey)
            let origins = from.origins(readyAt: departure)
            let bound = [Int](repeating: journey.arrival + 1, count: journey.rides + 1)
            guard let earliest = search.run(origins: origins, targets: targets, bound: bound, limits: .init(caps: caps)).last,
                earliest.rides == journey.rides && Self.departure(of: earliest) == departure
            else { return journey }
            // The latest instants from the destination at that arrival, for the ties.
            let back = to.origins(readyAt: -earliest.arrival)
            let leaving = [Int](repeating: -departure + 1, count: journey.rides + 1)
            _ = mirror.run(origins: back, targets: origin, bound: leaving, limits: .init(caps: search.capsForTheOtherDirection))
            return try search.tieBroken(earliest, departure: departure, origins: origin, targets: targets, latest: mirror, texts: texts)
        }
    }

    /// The text ids the order of ties compares.
    private func tieTexts() -> RaptorSearch.TieTexts {
        let (bundle, db) = (bundle, db)
        return RaptorSearch.TieTexts(
            trip: { Array(try bundle.patterns.trip($0, db: db).tripID.utf8) },
            stop: { Array(try bundle.entities.stop($0, db: db).stopID.utf8) })
    }

    /// The instant a journey leaves its origin: its first boarding less the access walk.
    static func departure(of found: RaptorSearch.Found) -> Int {
        var access = 0
        for step in found.steps {
            switch step {
            case .access(_, let seconds): access = seconds
            case .ride(_, _, let boardTime, _, _): return boardTime - access
            default: continue
            }
        }
        return found.arrival
    }
}
