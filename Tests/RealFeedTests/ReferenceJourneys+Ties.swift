import TransitRuntime

extension ReferenceJourneys {
    /// A journey's trips and stops as the order of ties reads them.
    static func tieKey(of journey: Journey) -> TieKey {
        let rides = journey.legs.filter { $0.kind == .ride }
        return TieKey(
            trips: rides.compactMap { $0.boarding?.tripID },
            stops: rides.flatMap { [$0.boarding?.stopID ?? "", $0.alighting?.stopID ?? ""] })
    }

    /// Every journey the reference lists from `from` to `to` that leaves at `journey`'s
    /// departure and arrives at its arrival with its rides (the journey itself among them
    /// when it is right); nil when there are more than 5,000.
    func ties(of journey: Journey, from: String, to: String) -> [TieKey]? {
        journeys(
            origins: stops(for: from), targets: stops(for: to), departure: Int(journey.departure.timeIntervalSince1970),
            arrival: Int(journey.arrival.timeIntervalSince1970), rides: journey.rides, limit: 5_000)
    }
}
