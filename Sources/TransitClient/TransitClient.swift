import AppHTTP
import Foundation
import TransitRealtime
import TransitRuntime

/// Asks a `transit-server` the questions an app asks its bundle and decodes the answers into
/// the runtime's own types (the server's bodies are the command line's `Codable` JSON).
///
/// ```swift
/// let client = TransitClient(server: URL(string: "https://transit.example.org")!, bundle: "zurich")
/// let board = try await client.departures(from: stop, limit: 10)
/// ```
public struct TransitClient: Sendable {
    /// The server's root (`https://host`, without `/v1`).
    public let server: URL
    /// The bundle's name on the server.
    public let bundle: String
    /// Seconds a request may take before it fails with `TransitClientError.unreachable`.
    public let timeout: TimeInterval
    let http: any AppHTTP

    /// A client of `bundle` on `server`; `timeout` bounds each request.
    public init(server: URL, bundle: String, timeout: TimeInterval = 2) {
        self.init(server: server, bundle: bundle, timeout: timeout, http: DefaultAppHTTP())
    }

    init(server: URL, bundle: String, timeout: TimeInterval, http: any AppHTTP) {
        self.server = server
        self.bundle = bundle
        self.timeout = timeout
        self.http = http
    }

    /// The server's board at the stops (live when the server has live data for the bundle):
    /// what `TransitBundle.departures(from:feed:at:within:limit:)` answers offline, with the
    /// live calls `departures(..., realtime:now:)` adds.
    /// - Throws: `TransitClientError`: `.unreachable` (no answer within the time-out, no
    ///   connection), `.refused` (the server's JSON error: an unknown stop, bad input),
    ///   `.badAnswer` (a body that does not decode).
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> ServerBoard {
        try await board("departures", stops: stops, feed: feed, at: time, within: window, limit: limit)
    }

    /// A board command's answer, live calls or the timetable's.
    func board(_ command: String, stops: [String], feed: String?, at time: QueryTime?, within window: TimeInterval, limit: Int)
        async throws -> ServerBoard
    {
        var parameters = stops.map { ("stop", $0) }
        if let feed { parameters.append(("feed", feed)) }
        if let time { parameters.append(("at", Self.text(time))) }
        parameters.append(("window", "\(max(0, Int((window / 60).rounded(.up))))"))
        parameters.append(("limit", "\(max(0, limit))"))
        let answer = try await get(command, parameters)
        let calls: [LiveDeparture]
        do {
            // A bundle with live sources answers live calls, one without the timetable's.
            if let live = try? JSONDecoder().decode([LiveDeparture].self, from: answer.body) {
                calls = live
            } else {
                calls = try JSONDecoder().decode([Departure].self, from: answer.body).map { LiveDeparture(scheduled: $0) }
            }
        } catch {
            throw TransitClientError.badAnswer("the \(command) do not decode: \(error)")
        }
        return ServerBoard(
            departures: calls, contentHash: answer.headers["x-bundle-content-hash"],
            realtimeNotApplied: answer.headers["x-realtime-not-applied"])
    }

    /// The board at a stop value (its feed is the stop's).
    public func departures(from stop: Stop, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20)
        async throws -> ServerBoard
    {
        try await departures(from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit)
    }

    /// The board at a stop reference.
    public func departures(from stop: StopRef, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20)
        async throws -> ServerBoard
    {
        try await departures(from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit)
    }

    /// `GET /v1/BUNDLE/COMMAND?...`: the body of a 200, else the server's error.
    func get(_ command: String, _ parameters: [(String, String)]) async throws -> AppAnswer {
        guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else {
            throw TransitClientError.badAnswer("cannot make a URL of \(server)")
        }
        let path = components.percentEncodedPath
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        components.percentEncodedPath = base + "/v1/" + Self.segment(bundle) + "/" + command
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` is a space in a query: send it escaped.
        let query = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components.percentEncodedQuery = query
        guard let url = components.url else { throw TransitClientError.badAnswer("cannot make a URL of \(server)") }
        let answer: AppAnswer
        do { answer = try await http.get(url, timeout: timeout) } catch { throw TransitClientError.unreachable("\(error)") }
        guard answer.status == 200 else {
            let error = (try? JSONDecoder().decode(ServerError.self, from: answer.body))?.error
            throw TransitClientError.refused(
                status: answer.status, code: error?.code ?? "http_\(answer.status)", message: error?.message ?? "HTTP \(answer.status)")
        }
        return answer
    }

    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// A query time as the server's `at` reads it.
    static func text(_ time: QueryTime) -> String {
        switch time {
        case .instant(let date):
            return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
        case .local(let day, let seconds):
            return day.description + String(format: "T%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
    }

    private struct ServerError: Decodable {
        struct Body: Decodable {
            var code: String
            var message: String
        }
        var error: Body
    }
}

/// A board the server answered.
public struct ServerBoard: Sendable {
    /// The calls, live ones with their predictions.
    public var departures: [LiveDeparture]
    /// The version of the bundle the server answered from (`X-Bundle-Content-Hash`).
    public var contentHash: String?
    /// Why the server's live data were not applied, when it says so.
    public var realtimeNotApplied: String?
}

/// Why a server request failed.
public enum TransitClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: no connection, a time-out, a broken response. An online-first source
    /// answers from the bundle instead.
    case unreachable(String)
    /// The server answered with an error (its status, JSON code and message).
    case refused(status: Int, code: String, message: String)
    /// The server answered 200 with a body that is not what the command answers.
    case badAnswer(String)

    public var description: String {
        switch self {
        case .unreachable(let reason): return "the server cannot be reached: \(reason)"
        case .refused(let status, let code, let message): return "the server refused (\(status) \(code)): \(message)"
        case .badAnswer(let reason): return "the server's answer is not understood: \(reason)"
        }
    }
}
