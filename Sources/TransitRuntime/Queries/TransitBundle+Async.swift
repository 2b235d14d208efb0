import Foundation

/// The queries as `async` functions of the same names, for apps: each runs on the
/// concurrency pool (never on the caller's actor, the main one included) and gives the same
/// answer as its synchronous twin. Cancelling the calling task cancels the work: a journey
/// search stops between its rounds and between the departures of a range (within
/// milliseconds on a large bundle) and throws `CancellationError`; a board or a lookup
/// (micro- to milliseconds) is checked before it starts and after it ends.
///
/// ```swift
/// let board = try await bundle.departures(from: "GARE_01", at: .instant(Date()))
/// ```
extension TransitBundle {
    /// Runs `body` on a task of the concurrency pool and waits for it (it never outlives the call).
    /// Cancelling the caller cancels that task, whose work checks `Task.isCancelled`.
    package func offCaller<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let work = Task.detached(priority: Task.currentPriority) { try body() }
        let value = try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
        try Task.checkCancellation()
        return value
    }

    /// `departures(from:feed:at:within:limit:)` off the caller's actor.
    public func departures(
        from stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(from: stop, feed: feed, at: time, within: window, limit: limit) }
    }

    /// `departures(from:feed:at:within:limit:)` off the caller's actor.
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(from: stops, feed: feed, at: time, within: window, limit: limit) }
    }

    /// `arrivals(to:feed:at:within:limit:)` off the caller's actor.
    public func arrivals(
        to stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.arrivals(to: stop, feed: feed, at: time, within: window, limit: limit) }
    }

    /// `arrivals(to:feed:at:within:limit:)` off the caller's actor.
    public func arrivals(
        to stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.arrivals(to: stops, feed: feed, at: time, within: window, limit: limit) }
    }

    /// `stop(_:feed:)` off the caller's actor.
    public func stop(_ id: String, feed: String? = nil) async throws -> Stop {
        try await offCaller { try self.stop(id, feed: feed) }
    }

    /// `stops(matching:limit:)` off the caller's actor.
    public func stops(matching text: String, limit: Int = 20) async throws -> [Stop] {
        try await offCaller { try self.stops(matching: text, limit: limit) }
    }

    /// `stops(near:within:limit:)` off the caller's actor.
    public func stops(near point: Coordinate, within radius: Double = 500, limit: Int = 20) async throws -> [Stop] {
        try await offCaller { try self.stops(near: point, within: radius, limit: limit) }
    }

    /// `nearestStops(to:count:maxDistance:)` off the caller's actor.
    public func nearestStops(to point: Coordinate, count: Int = 10, maxDistance: Double = 50_000) async throws -> [Stop] {
        try await offCaller { try self.nearestStops(to: point, count: count, maxDistance: maxDistance) }
    }

    /// `trip(_:feed:on:)` off the caller's actor.
    public func trip(_ id: String, feed: String? = nil, on date: ServiceDate) async throws -> TripDetails {
        try await offCaller { try self.trip(id, feed: feed, on: date) }
    }

    /// `shape(trip:feed:)` off the caller's actor.
    public func shape(trip: String, feed: String? = nil) async throws -> Shape {
        try await offCaller { try self.shape(trip: trip, feed: feed) }
    }

    /// `shapes(route:feed:)` off the caller's actor.
    public func shapes(route: String, feed: String? = nil) async throws -> [Shape] {
        try await offCaller { try self.shapes(route: route, feed: feed) }
    }

    /// `agencies(feed:)` off the caller's actor.
    public func agencies(feed: String? = nil) async throws -> [Agency] {
        try await offCaller { try self.agencies(feed: feed) }
    }

    /// `routes(feed:agency:)` off the caller's actor.
    public func routes(feed: String? = nil, agency: String? = nil) async throws -> [Route] {
        try await offCaller { try self.routes(feed: feed, agency: agency) }
    }

    /// `routes(servingStop:feed:)` off the caller's actor.
    public func routes(servingStop stop: String, feed: String? = nil) async throws -> [Route] {
        try await offCaller { try self.routes(servingStop: stop, feed: feed) }
    }

    /// `route(_:feed:)` off the caller's actor.
    public func route(_ id: String, feed: String? = nil) async throws -> RouteDetails {
        try await offCaller { try self.route(id, feed: feed) }
    }

    /// `transfers(at:feed:)` off the caller's actor.
    public func transfers(at stop: String, feed: String? = nil) async throws -> [Transfer] {
        try await offCaller { try self.transfers(at: stop, feed: feed) }
    }

    /// `info()` off the caller's actor.
    public func info() async throws -> BundleInfo {
        try await offCaller { try self.info() }
    }

    /// `verifyContentHash()` off the caller's actor.
    public func verifyContentHash() async throws -> Bool {
        try await offCaller { try self.verifyContentHash() }
    }

    /// `journeys(from:to:departingAt:within:options:)` off the caller's actor.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval = 0, options: JourneyOptions = JourneyOptions()
    ) async throws -> [Journey] {
        try await offCaller { try self.journeys(from: origin, to: destination, departingAt: time, within: window, options: options) }
    }

    /// `journeys(from:to:arrivingBy:options:)` off the caller's actor.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, arrivingBy time: QueryTime, options: JourneyOptions = JourneyOptions()
    ) async throws -> [Journey] {
        try await offCaller { try self.journeys(from: origin, to: destination, arrivingBy: time, options: options) }
    }

    /// `timetable(at:feed:on:)` off the caller's actor.
    public func timetable(at stop: String, feed: String? = nil, on date: ServiceDate) async throws -> [Departure] {
        try await offCaller { try self.timetable(at: stop, feed: feed, on: date) }
    }

    /// `timetable(ofRoute:feed:direction:on:)` off the caller's actor.
    public func timetable(ofRoute route: String, feed: String? = nil, direction: Int? = nil, on date: ServiceDate) async throws
        -> [TripDetails]
    {
        try await offCaller { try self.timetable(ofRoute: route, feed: feed, direction: direction, on: date) }
    }

    /// `shape(trip:feed:fromStopSequence:toStopSequence:)` off the caller's actor.
    public func shape(trip: String, feed: String? = nil, fromStopSequence from: Int, toStopSequence to: Int) async throws -> Shape {
        try await offCaller { try self.shape(trip: trip, feed: feed, fromStopSequence: from, toStopSequence: to) }
    }

    /// `shape(of:)` off the caller's actor.
    public func shape(of leg: JourneyLeg) async throws -> Shape {
        try await offCaller { try self.shape(of: leg) }
    }
}
