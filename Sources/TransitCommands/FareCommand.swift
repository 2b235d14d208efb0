import ArgumentParser
import Foundation
import TransitRuntime

/// `transit-query fare`: the price of one ride from a stop to another, by the feed's fares
/// (the first ride without a change leaving within six hours of --at, on --route if given).
struct FareCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "fare", abstract: "The fare of a single ride between two stops, by the feed's fare rules.")

    @OptionGroup var options: BundleOptions

    @Option(parsing: .unconditional, help: "The stop_id boarded at (a station: any platform).")
    var from: String

    @Option(parsing: .unconditional, help: "The stop_id alighted at.")
    var to: String

    @Option(help: "Only a ride on this route_id.")
    var route: String?

    @Option(help: "The feed id, when several feeds have a stop_id given.")
    var feed: String?

    @Option(help: "Leave at: YYYY-MM-DDTHH:MM[:SS], local to the feed, or with an offset (default: now).")
    var at: String?

    @Option(help: "Fares v2: price for this rider_category_id (default: the feed's default category).")
    var riderCategory: String?

    @Option(help: "Fares v2: price on this fare_media_id (default: the cheapest medium).")
    var fareMedia: String?

    /// Text: the ride and its fare; JSON: `{"fare": {...} or null, "journey": {...} or null}`.
    /// No ride found: status 1.
    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        guard
            case .plan(var request) = try Query.plan(
                from: from, to: to, feed: feed, at: at, arriveBy: false, windowMinutes: 360, maxTransfers: 0, changeTime: nil,
                walkSpeed: nil, transferDistance: nil, accessDistance: nil, wheelchair: false, now: context.now)
        else { preconditionFailure("a fare's query is a plan") }
        request.options.maxTransfers = 0
        var ride = try request.answer(from: bundle).journeys.first { journey in
            let rides = journey.legs.filter { $0.kind == .ride }
            return rides.count == 1 && (route == nil || rides[0].boarding?.routeID == route)
        }
        if var priced = ride, riderCategory != nil || fareMedia != nil {
            priced.fare = try bundle.fare(of: priced, options: FareOptions(riderCategoryID: riderCategory, fareMediaID: fareMedia))
            ride = priced
        }
        let found = ride
        var reply = CommandReply(value: FareOutput(fare: found?.fare, journey: found)) { [from, to, route] in
            let ride = found
            if let ride {
                return Answer.journeys([ride]) + (ride.fare == nil ? "\n  no fare: the feed's fare rules do not price this ride" : "")
            }
            return "no ride without a change from \(from) to \(to)\(route.map { " on route \($0)" } ?? "") within 6 hours"
        }
        reply.found = ride != nil
        return reply
    }
}

/// `fare --json`: both keys always written, null when absent.
private struct FareOutput: Encodable {
    var fare: JourneyFare?
    var journey: Journey?

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fare, forKey: .fare)
        try c.encode(journey, forKey: .journey)
    }

    private enum CodingKeys: String, CodingKey { case fare, journey }
}
