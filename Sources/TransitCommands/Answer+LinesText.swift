import TransitRuntime

/// Agencies, routes and a route's stops as text.
extension Answer {
    static func agencies(_ list: [Agency]) -> String {
        guard !list.isEmpty else { return "no agencies" }
        var table = TextTable(["feed", "agency_id", "name", "timezone", "url"])
        for a in list { table.add([a.feedID, a.agencyID, a.name, a.timezone, a.url ?? ""]) }
        return table.render()
    }

    static func transfers(_ list: [Transfer]) -> String {
        guard !list.isEmpty else { return "no transfers from this stop in transfers.txt" }
        var table = TextTable(["feed", "from", "to", "type", "min time"])
        for t in list {
            table.add([
                t.feedID, t.fromStopID, t.toStopID, transferTypeName(t.type),
                t.minTransferTime.map { "\($0) s" } ?? "",
            ])
        }
        return table.render()
    }

    static func transferTypeName(_ type: TransferType) -> String {
        switch type {
        case .recommended: return "recommended"
        case .timed: return "timed"
        case .minimumTime: return "minimum time"
        case .notPossible: return "not possible"
        case .inSeat: return "in-seat"
        case .inSeatNotAllowed: return "in-seat not allowed"
        case .other(let code): return String(code)
        }
    }

    static func routes(_ list: [Route]) -> String {
        guard !list.isEmpty else { return "no routes" }
        var table = TextTable(["feed", "route_id", "name", "long name", "type", "agency", "colour"])
        for r in list {
            table.add([
                r.feedID, r.routeID, r.shortName ?? "", DisplayWidth.truncate(r.longName ?? "", to: 40),
                routeTypeName(r.routeType),
                r.agencyID ?? "", r.color?.hex ?? "",
            ])
        }
        return table.render()
    }

    static func route(_ details: RouteDetails) -> String {
        let r = details.route
        let name = [r.shortName, r.longName].compactMap { $0 }.joined(separator: " ")
        var parts = ["route \(r.routeID) (\(r.feedID)): \(name.isEmpty ? r.routeID : name), \(routeTypeName(r.routeType))"]
        for d in details.directions {
            let direction = d.directionID.map { "direction \($0)" } ?? "no direction_id"
            parts.append("\n\(direction) to \(d.headsign ?? "?"), \(d.tripCount) trips, \(d.stops.count) stops")
            var table = TextTable(["#", "stop_id", "name", "platform"])
            for (i, s) in d.stops.enumerated() { table.add([String(i + 1), s.stopID, s.name, s.platformCode ?? ""]) }
            parts.append(table.render())
        }
        return parts.joined(separator: "\n")
    }

    /// route_type's name: the basic types by name, an extended code (100-1799) by its group.
    static func routeTypeName(_ type: RouteType) -> String {
        switch type {
        case .tram: return "tram"
        case .subway: return "metro"
        case .rail: return "rail"
        case .bus: return "bus"
        case .ferry: return "ferry"
        case .cableTram: return "cable tram"
        case .aerialLift: return "aerial lift"
        case .funicular: return "funicular"
        case .trolleybus: return "trolleybus"
        case .monorail: return "monorail"
        case .extended(let code):
            let groups = [
                1: "rail", 2: "coach", 4: "urban rail", 7: "bus", 8: "trolleybus", 9: "tram", 10: "water", 11: "air", 12: "ferry",
                13: "aerial lift", 14: "funicular", 15: "taxi", 17: "other",
            ]
            return groups[code / 100].map { "\($0) (\(code))" } ?? String(code)
        case .other(let code): return String(code)
        }
    }
}
