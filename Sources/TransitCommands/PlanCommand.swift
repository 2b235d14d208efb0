import ArgumentParser
import Foundation
import TransitRuntime

struct PlanCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Journeys from one place to another: rides, transfers and walks, offline.")

    @OptionGroup var options: BundleOptions

    @Option(parsing: .unconditional, help: "Where the journey starts: a stop_id (a station: any platform) or LAT,LON.")
    var from: String

    @Option(parsing: .unconditional, help: "Where it ends: a stop_id or LAT,LON.")
    var to: String

    @Option(help: "The feed id, when several feeds have a stop_id given.")
    var feed: String?

    @Option(help: "Leave at (or, with --arrive-by, arrive by): YYYY-MM-DDTHH:MM[:SS], local to the feed, or with an offset (default: now).")
    var at: String?

    @Flag(help: "Arrive by --at instead of leaving at it.")
    var arriveBy = false

    @Option(help: "Every journey leaving in a window of this many minutes after --at (range query).")
    var window: Int?

    @Option(help: "Most transfers (default 4).")
    var maxTransfers: Int?

    @Option(help: "Seconds to change vehicles (default 120).")
    var changeTime: Int?

    @Option(help: "Walking speed in metres per second (default 1.2).")
    var walkSpeed: Double?

    @Option(help: "Farthest walk between two stops, metres (default 400).")
    var transferDistance: Double?

    @Option(help: "Farthest walk from a LAT,LON to a stop, metres (default 800).")
    var accessDistance: Double?

    @Option(help: "With --window: search from at most this many departure instants, the earliest; the answer then ends where it stopped.")
    var rangeSearches: Int?

    @Flag(help: "Only accessible stops and trips marked wheelchair accessible.")
    var wheelchair = false

    /// Trip updates to ride on: predicted times, no cancelled trips or skipped stops.
    @OptionGroup var live: LiveOptions

    func validate() throws {
        try Query.validate { try query() }
        try live.validate()
    }

    /// Text as an itinerary; JSON as `{"journeys": [...]}`, the key batch answers use.
    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        guard case .plan(var request) = try query(now: context.now) else { preconditionFailure("a plan's query is a plan") }
        request.live = try context.live ?? live.snapshot(bundle, feed: feed) { try bundle.instant(of: $0, feed: feed) }
        let answer = try Query.plan(request).answer(from: bundle)
        var reply = CommandReply(value: KeyedOutput(key: answer.key, value: answer.value, searchedUntil: answer.searchedUntil)) {
            answer.text
        }
        reply.isLive = request.live != nil
        return reply
    }

    private func query(now: Date = Date()) throws -> Query {
        try .plan(
            from: from, to: to, feed: feed, at: at, arriveBy: arriveBy, windowMinutes: window, maxTransfers: maxTransfers,
            changeTime: changeTime, walkSpeed: walkSpeed, transferDistance: transferDistance, accessDistance: accessDistance,
            wheelchair: wheelchair, rangeSearches: rangeSearches, now: now)
    }
}
