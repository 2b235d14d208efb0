import TransitRuntime

/// Each journey as the hand-made journey tests write the one they expect: "rides: trip
/// trip ... HH:MM-HH:MM", a walk between rides as "walk", local times of departure and
/// arrival.
package func journeySummary(_ journeys: [Journey]) -> [String] {
    journeys.map { j in
        let trips = j.legs.map { $0.boarding?.tripID ?? "walk" }.joined(separator: " ")
        return
            "\(j.rides): \(trips) \(j.departureLocal.description.dropFirst(11).prefix(5))-\(j.arrivalLocal.description.dropFirst(11).prefix(5))"
    }
}
