import BundleFormat
import Foundation
import TransitCities
import TransitRuntime

/// Answers as text for people: tables and short summaries.
extension Answer {
    var text: String {
        switch self {
        case .departures(let list): return Self.departures(list)
        case .arrivals(let list): return Self.arrivals(list)
        case .stops(let list): return Self.stops(list)
        case .trip(let trip): return Self.trip(trip)
        case .shape(let shape): return Self.shapes([shape])
        case .shapes(let list): return Self.shapes(list)
        case .agencies(let list): return Self.agencies(list)
        case .transfers(let list): return Self.transfers(list)
        case .routes(let list): return Self.routes(list)
        case .route(let details): return Self.route(details)
        case .info(let info): return Self.info(info)
        case .city(let city): return Self.city(city)
        case .cities(let list): return Self.cities(list)
        case .journeys(let list, let end):
            let text = Self.journeys(list)
            guard let end else { return text }
            return text + "\n\nsearched until \(end) (--range-searches): journeys leaving then or later were not looked for"
        }
    }

    private static func departures(_ list: [Departure]) -> String { board(list, arrivals: false) }

    private static func arrivals(_ list: [Departure]) -> String { board(list, arrivals: true) }

    /// A board: each call's time (departure or arrival), route (and train number), headsign.
    private static func board(_ list: [Departure], arrivals: Bool) -> String {
        guard !list.isEmpty else { return "no \(arrivals ? "arrivals" : "departures") in this window" }
        var table = TextTable(["time", "route", "headsign", "stop", "platform", "trip", "service day"])
        let times = list.map { arrivals ? $0.arrivalLocal : $0.departureLocal }
        let repeated = ClockText.inRepeatedHour(times)
        for ((d, local), ambiguous) in zip(zip(list, times), repeated) {
            // "+1" when the service day is the day before; the UTC offset where a wall-clock hour repeats.
            let time =
                ClockText.minutes(local) + ClockText.dayMark(local.date.description, after: d.serviceDate.description)
                + (ambiguous ? " " + ClockText.offset(local) : "") + (d.frequencyBased ? "~" : "")
            let line = d.routeShortName ?? d.routeLongName.map { DisplayWidth.truncate($0, to: 24) } ?? d.routeID
            let route = d.tripShortName.map { line + " " + $0 } ?? line
            table.add([time, route, d.headsign, d.stopID, d.platformCode ?? "", d.tripID, d.serviceDate.description])
        }
        return table.render()
    }

    private static func stops(_ list: [Stop]) -> String {
        guard !list.isEmpty else { return "no stops found" }
        var table = TextTable(["feed", "stop_id", "name", "type", "parent", "platform", "distance"])
        for s in list {
            table.add([
                s.feedID, s.stopID, s.name, locationTypeName(s.locationType), s.parentStation ?? "", s.platformCode ?? "",
                s.distanceMetres.map { "\(Int($0.rounded())) m" } ?? "",
            ])
        }
        return table.render()
    }

    /// A location_type's name; the number itself for a value GTFS does not define.
    static func locationTypeName(_ type: LocationType) -> String {
        switch type {
        case .stop: return "stop"
        case .station: return "station"
        case .entrance: return "entrance"
        case .genericNode: return "node"
        case .boardingArea: return "boarding"
        case .other(let code): return String(code)
        }
    }

    /// Each line's name, points and length, then its points one a line.
    private static func shapes(_ list: [Shape]) -> String {
        guard !list.isEmpty else { return "no lines: the route has no trips" }
        return list.map { s in
            let name = s.shapeID.map { "shape \($0)" } ?? "through the stops of trip \(s.tripID ?? "")"
            var metres = 0.0
            for (a, b) in zip(s.points, s.points.dropFirst()) {
                metres += GeoDistance.metres(a.latitude, a.longitude, b.latitude, b.longitude)
            }
            let header = "\(name) (\(s.feedID)): \(s.points.count) points, \(String(format: "%.1f", metres / 1000)) km"
            return ([header] + s.points.map { "\($0.latitude),\($0.longitude)" }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private static func trip(_ details: TripDetails) -> String {
        var table = TextTable(["seq", "stop_id", "stop", "arrives", "departs", "pickup", "drop-off"])
        for s in details.stopTimes {
            table.add([
                String(s.stopSequence), s.stopID, s.stopName, ClockText.seconds(s.arrivalLocal),
                ClockText.seconds(s.departureLocal) + (s.interpolated ? " *" : s.timepoint ? "" : " ~"), String(s.pickupType.rawValue),
                String(s.dropOffType.rawValue),
            ])
        }
        var lines = [
            "trip \(details.tripID) (\(details.feedID)), route \(details.routeID), to \(details.headsign), "
                + "\(details.serviceDate)\(details.runsOnDate ? "" : " (does not run on this date)")", table.render(),
        ]
        for f in details.frequencies {
            lines.append(
                "repeats every \(f.headwaySecs / 60) min from \(ClockText.gtfs(f.startSecs)) until \(ClockText.gtfs(f.endSecs))"
                    + (f.exactTimes ? "" : " (approximate times)"))
        }
        if details.stopTimes.contains(where: \.interpolated) { lines.append("* interpolated time") }
        if details.stopTimes.contains(where: { !$0.interpolated && !$0.timepoint }) {
            lines.append("~ approximate time (timepoint 0 in the feed)")
        }
        return lines.joined(separator: "\n")
    }

    private static func info(_ info: BundleInfo) -> String {
        var table = TextTable(["feed", "timezone", "version", "first day", "last day", "last trip"])
        for f in info.feeds {
            table.add([
                f.feedID, f.timezone, f.version ?? "", f.firstServiceDate?.description ?? "", f.lastServiceDate?.description ?? "",
                f.lastTripDate?.description ?? "",
            ])
        }
        let c = info.coverage
        return """
            bundle \(info.bundleID)\(info.label.map { " (\($0))" } ?? ""), compiled by gtfs-compile \(info.compilerVersion ?? "?"), schema version \(info.schemaVersion)
            content sha256 \(info.contentHash)
            coverage \(c.firstServiceDate?.description ?? "-") to \(c.lastServiceDate?.description ?? "-"), last trip \(c.lastTripDate?.description ?? "-")
            \(info.stops) stops, \(info.routes) routes, \(info.trips) trips, \(info.patterns) patterns, \(info.stopTimes) stop_times, \(info.cities) cities
            \(table.render())
            """ + publishers(info.feeds)
    }

    /// Each feed's publisher, contact and the organisations to credit (feed_info.txt and
    /// attributions.txt), for the feeds that name any.
    private static func publishers(_ feeds: [BundleInfo.Feed]) -> String {
        var lines: [String] = []
        for f in feeds {
            if let name = f.publisherName {
                lines.append("\(f.feedID): published by \(name)" + (f.publisherURL.map { " (\($0))" } ?? ""))
            }
            let contact = [f.contactEmail, f.contactURL].compactMap { $0 }
            if !contact.isEmpty { lines.append("\(f.feedID): contact \(contact.joined(separator: ", "))") }
            for a in f.attributions {
                let roles = [(a.isProducer, "producer"), (a.isOperator, "operator"), (a.isAuthority, "authority")].filter(\.0).map(\.1)
                let scope =
                    a.routeID.map { " for route \($0)" } ?? a.agencyID.map { " for agency \($0)" } ?? a.tripID.map { " for trip \($0)" }
                    ?? ""
                let link = [a.url, a.email, a.phone].compactMap { $0 }.joined(separator: ", ")
                lines.append(
                    "\(f.feedID): credit \(a.organizationName) (\(roles.joined(separator: ", ")))\(scope)"
                        + (link.isEmpty ? "" : ": \(link)"))
            }
        }
        return lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n")
    }

    private static func city(_ city: City) -> String {
        var lines = [
            "\(city.name), \(city.countryName ?? city.country) (id \(city.id))",
            "location      \(city.lat), \(city.lon)\(city.timezone.map { ", \($0)" } ?? "")",
        ]
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append(label.padding(toLength: 14, withPad: " ", startingAt: 0) + value) }
        }
        add("population", city.population.map(String.init))
        // Whole numbers; a value no Int holds (a city built by hand) is shown as it is.
        func whole(_ value: Double) -> String { abs(value) < 1e15 ? String(Int(value)) : String(value) }
        add("cost", city.costOfLiving.map { "\(whole($0)) USD/month" })
        add("internet", city.internetSpeed.map { "\(whole($0)) Mbps" })
        add("safety", city.safetyRating.map { "\($0) / 5" })
        add("climate", city.climate)
        add("categories", city.categories.joined(separator: ", "))
        add("also called", city.alternateNames.prefix(8).joined(separator: ", ") + (city.alternateNames.count > 8 ? ", …" : ""))
        add("related", city.relatedCities.map { "\($0.name) (\($0.id))" }.joined(separator: ", "))
        add("transit", city.feeds.joined(separator: ", "))
        add("about", city.description)
        for a in city.attractions { add("attraction", a.name + (a.description.map { ": \($0)" } ?? "")) }
        for m in city.images { add("image", "\(m.type) \(m.url)") }
        return lines.joined(separator: "\n")
    }

    private static func cities(_ list: [City]) -> String {
        guard !list.isEmpty else { return "no cities found" }
        var table = TextTable(["id", "name", "country", "population", "distance"])
        for c in list {
            table.add([
                c.id, c.name, c.country, c.population.map(String.init) ?? "",
                c.distanceMetres.map { String(format: "%.1f km", $0 / 1000) } ?? "",
            ])
        }
        return table.render()
    }
}
