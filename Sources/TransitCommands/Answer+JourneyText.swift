import TransitRuntime

/// Journeys as itineraries a person reads: one block per journey, one line per leg.
extension Answer {
    static func journeys(_ list: [Journey]) -> String {
        guard !list.isEmpty else { return "no journey found within the search horizon" }
        return list.enumerated().map { number, journey in
            let minutes = Int((journey.arrival.timeIntervalSince(journey.departure) / 60).rounded(.up))
            let rides = journey.rides == 0 ? "on foot" : journey.rides == 1 ? "1 ride" : "\(journey.rides) rides"
            var lines = [
                "journey \(number + 1): \(clock(journey.departureLocal)) -> \(clock(journey.arrivalLocal)), \(minutes) min, \(rides)"
            ]
            for leg in journey.legs { lines.append("  " + describe(leg)) }
            if let fare = journey.fare { lines.append("  " + describe(fare)) }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private static func describe(_ leg: JourneyLeg) -> String {
        let times = "\(clock(leg.departureLocal))-\(clock(leg.arrivalLocal))"
        guard let board = leg.boarding, let alight = leg.alighting else {
            let metres = leg.distance.map { "\(Int($0)) m" } ?? ""
            return "\(times)  walk \(metres) from \(leg.fromStopID ?? "the start") to \(leg.toStopID ?? "the destination")"
        }
        let line = board.routeShortName ?? board.routeLongName.map { DisplayWidth.truncate($0, to: 24) } ?? board.routeID
        let route = board.tripShortName.map { line + " " + $0 } ?? line
        let platform = board.platformCode.map { " (platform \($0))" } ?? ""
        return
            "\(times)  \(route) towards \(board.headsign): \(board.stopName) [\(board.stopID)]\(platform) to \(alight.stopName) [\(alight.stopID)], trip \(board.tripID), service day \(board.serviceDate)"
    }

    /// "fare 7.85 USD (fare_id 58: 7.85 for legs 1, 3)", legs counted from 1 as printed.
    static func describe(_ fare: JourneyFare) -> String {
        let parts = fare.components.map { c in
            "\(c.paymentMethod == nil ? "product" : "fare_id") \(c.fareID)\(c.productName.map { " (\($0))" } ?? ""): \(c.amount) for leg\(c.legs.count == 1 ? "" : "s") \(c.legs.map { String($0 + 1) }.joined(separator: ", "))"
        }
        return "fare \(fare.amount) \(fare.currency) (\(parts.joined(separator: "; ")))"
    }

    private static func clock(_ time: LocalDateTime) -> String { ClockText.minutes(time) }
}
