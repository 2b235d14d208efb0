import Foundation
import TransitRealtime
import TransitRuntime

/// A journey question as the command line and batch lines ask it.
struct PlanRequest {
    var from: JourneyPlace
    var to: JourneyPlace
    var time: QueryTime
    var arriveBy: Bool
    var window: TimeInterval
    var options: JourneyOptions
    /// Live data to ride on, and the moment it is judged at.
    var live: (snapshot: RealtimeSnapshot, now: Date)?

    /// A place as typed: `LAT,LON` (two numbers) is a point, anything else a stop_id.
    static func place(_ text: String, feed: String?) throws -> JourneyPlace {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) {
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw Query.Invalid(description: "coordinate \(text) is out of range") }
            return .coordinate(Coordinate(latitude: lat, longitude: lon))
        }
        guard !text.isEmpty else { throw Query.Invalid(description: "a journey needs a stop_id or LAT,LON at each end") }
        return .stop(text, feed: feed)
    }

    /// The journeys; for a range query that `options.rangeSearches` cut short, the end of
    /// the part of the window they answer for.
    func answer(from bundle: TransitBundle) throws -> (journeys: [Journey], searchedUntil: LocalDateTime?) {
        if arriveBy {
            if let live {
                return (
                    try bundle.journeys(from: from, to: to, arrivingBy: time, options: options, realtime: live.snapshot, now: live.now), nil
                )
            }
            return (try bundle.journeys(from: from, to: to, arrivingBy: time, options: options), nil)
        }
        let range =
            if let live {
                try bundle.journeyRange(
                    from: from, to: to, departingAt: time, within: window, options: options, realtime: live.snapshot, now: live.now)
            } else {
                try bundle.journeyRange(from: from, to: to, departingAt: time, within: window, options: options)
            }
        return (range.journeys, range.isComplete ? nil : range.endLocal)
    }
}

extension Query {
    static func plan(
        from: String, to: String, feed: String?, at: String?, arriveBy: Bool, windowMinutes: Int?, maxTransfers: Int?,
        changeTime: Int?, walkSpeed: Double?, transferDistance: Double?, accessDistance: Double?, wheelchair: Bool,
        rangeSearches: Int? = nil, now: Date
    ) throws -> Query {
        var options = JourneyOptions()
        if let maxTransfers {
            guard (0...10).contains(maxTransfers) else { throw Invalid(description: "max transfers must be 0 to 10") }
            options.maxTransfers = maxTransfers
        }
        if let changeTime {
            guard (0...3600).contains(changeTime) else { throw Invalid(description: "change time must be 0 to 3600 seconds") }
            options.changeTime = TimeInterval(changeTime)
        }
        if let walkSpeed {
            guard walkSpeed > 0.1, walkSpeed <= 10 else { throw Invalid(description: "walk speed must be above 0.1 and at most 10 m/s") }
            options.walkingSpeed = walkSpeed
        }
        if let transferDistance {
            guard (0...5000).contains(transferDistance) else { throw Invalid(description: "transfer distance must be 0 to 5000 metres") }
            options.transferDistance = transferDistance
        }
        if let accessDistance {
            guard (0...5000).contains(accessDistance) else { throw Invalid(description: "access distance must be 0 to 5000 metres") }
            options.accessDistance = accessDistance
        }
        options.wheelchair = wheelchair
        if let rangeSearches {
            guard rangeSearches >= 1 else { throw Invalid(description: "range searches must be at least 1") }
            options.rangeSearches = rangeSearches
        }
        let window = windowMinutes ?? 0
        guard (0...1440).contains(window) else { throw Invalid(description: "window must be 0 to 1440 minutes") }
        if arriveBy && window > 0 { throw Invalid(description: "a window goes with a departure time, not with arrive-by") }
        return .plan(
            PlanRequest(
                from: try PlanRequest.place(from, feed: feed), to: try PlanRequest.place(to, feed: feed),
                time: try at.map(QueryTime.parse) ?? .instant(now), arriveBy: arriveBy, window: TimeInterval(window * 60),
                options: options))
    }
}
