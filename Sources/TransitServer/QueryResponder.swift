import FileIntegrity
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TransitCommands
import TransitRuntime

/// Where every HTTP answer is made: the routes of docs/server-semantics.md, each request
/// logged and counted once.
///
/// ```
/// GET  /v1/NAME/COMMAND?OPTIONS            what `transit-query COMMAND --json` prints
/// GET  /v1/NAME/stops/STOP/departures?time=HH:MM
/// POST /v1/NAME/batch                      the lines of `transit-query batch`
/// GET  /v1/NAME/realtime                   the live sources and their snapshot
/// GET  /v1                                 the bundles served
/// GET  /healthz  /readyz  /metrics  /openapi.json
/// GET  /  /app.js  /app.css                 the page to try every query (WebPage)
/// ```
struct QueryResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let state: ServerState

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var label = "other"
        var reply: Reply
        do {
            reply = try await route(request, label: &label)
        } catch let failure as ServerFailure {
            reply = Reply(failure)
        } catch {
            // The runtime's errors read as the command line reads them.
            reply = CommandFailure(error).map(Reply.init) ?? Reply(ServerFailure(status: 500, code: "internal", message: "\(error)"))
        }
        let response = reply.response(to: request, state: state)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.metrics.request(command: label, status: Int(response.status.code), seconds: seconds)
        state.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(request.uri.path.prefix(200))", "status": "\(response.status.code)",
                "ms": "\(String(format: "%.2f", seconds * 1000))", "bundle": "\(reply.contentHash?.prefix(12) ?? "-")",
            ])
        return response
    }

    /// The reply to one request; `label` is set to what the metrics count it under.
    private func route(_ request: Request, label: inout String) async throws -> Reply {
        let rawTarget = request.head.path ?? "/"
        guard rawTarget.utf8.count <= state.configuration.maxTargetBytes else {
            throw ServerFailure(
                status: 414, code: "target_too_long",
                message: "the request's path and query are \(rawTarget.utf8.count) bytes (at most \(state.configuration.maxTargetBytes))")
        }
        let target = try RequestTarget(rawTarget)
        let isGet = request.method == .get
        let path = target.segments
        func allowing(_ get: Bool) throws {
            guard get else {
                throw ServerFailure(status: 405, code: "method_not_allowed", message: "\(request.method.rawValue) is not answered here")
            }
        }
        switch path.count {
        case _ where path.isEmpty || (path.count == 1 && ["app.js", "app.css"].contains(path[0])):
            // The page to try every query from a browser (Web/WebPage.swift).
            try allowing(isGet)
            label = "page"
            var reply: Reply
            switch path.first {
            case "app.js":
                reply = Reply(
                    status: 200, body: Array(WebPage.script.utf8), contentType: "text/javascript; charset=utf-8", cacheControl: "no-cache")
            case "app.css":
                reply = Reply(
                    status: 200, body: Array(WebPage.style.utf8), contentType: "text/css; charset=utf-8", cacheControl: "no-cache")
            default:
                reply = Reply(
                    status: 200, body: Array(WebPage.html.utf8), contentType: "text/html; charset=utf-8", cacheControl: "no-cache")
            }
            reply.headers += WebPage.securityHeaders
            return reply
        case 1 where ["healthz", "readyz", "metrics", "openapi.json", "v1"].contains(path[0]):
            try allowing(isGet)
            switch path[0] {
            case "healthz":
                label = "healthz"
                return Reply(status: 200, text: "ok\n")
            case "readyz":
                label = "readyz"
                return readiness()
            case "metrics":
                label = "metrics"
                state.recordGauges()
                return Reply(status: 200, body: state.metrics.text(), contentType: "text/plain; version=0.0.4", cacheControl: "no-store")
            case "openapi.json":
                label = "openapi"
                return Reply(status: 200, body: state.openAPI, cacheControl: "no-cache")
            default:
                label = "bundles"
                return try Reply(json: BundleList(state.registry.all))
            }
        case 3 where path[0] == "v1" && path[1] == "sync":
            label = "sync_" + (["push", "pull", "devices"].contains(path[2]) ? path[2] : "unknown")
            guard let sync = state.sync else {
                throw ServerFailure(status: 404, code: "not_found", message: "this server keeps no rider data (start it with --sync-db)")
            }
            return try await sync.reply(request, endpoint: path[2], parameters: target.parameters)
        case 3 where path[0] == "v1" && path[2] == "batch":
            label = "batch"
            try allowing(request.method == .post)
            return try await batch(request, bundle: try version(path[1]))
        case 3 where path[0] == "v1" && path[2] == "realtime":
            label = "realtime"
            try allowing(isGet)
            return try Reply(json: LiveReport(name: path[1], state: state))
        case 3 where path[0] == "v1":
            label = CommandQuestion.commands.contains(path[2]) ? path[2] : "unknown"
            try allowing(isGet)
            return try await answer(path[2], parameters: target.parameters, from: try version(path[1]))
        case 5 where path[0] == "v1" && path[2] == "stops" && path[4] == "departures":
            label = "departures"
            try allowing(isGet)
            return try await seedDepartures(name: path[1], stop: path[3], parameters: target.parameters)
        default:
            throw ServerFailure(status: 404, code: "not_found", message: "no such endpoint (see /openapi.json)")
        }
    }

    /// The current version of a bundle, or 404.
    private func version(_ name: String) throws -> ServedBundle {
        guard let version = state.registry[name] else {
            throw ServerFailure(
                status: 404, code: "unknown_bundle",
                message: "no bundle named \"\(name.prefix(100))\" (serving: \(state.registry.names.joined(separator: ", ")))")
        }
        return version
    }

    /// `GET /v1/NAME/COMMAND`: the command's reply from one version of the bundle.
    func answer(_ command: String, parameters: [(name: String, value: String)], from version: ServedBundle) async throws -> Reply {
        let question = try CommandQuestion(command: command, parameters: parameters)
        let bundle = try version.bundle(language: try question.language)
        let live = question.takesLiveData ? version.live?.snapshot : nil
        let now = state.configuration.now
        let context = CommandContext(now: now, live: live.map { ($0, now) })
        let answered = try await state.run { () throws -> Answered in
            let reply = try question.reply(from: bundle, context: context)
            return Answered(body: try reply.json() + [0x0A], found: reply.found, isLive: reply.isLive, note: reply.realtimeNotApplied)
        }
        var reply = Reply(status: answered.found ? 200 : 404, body: answered.body)
        reply.version = version
        reply.isLive = answered.isLive
        if let note = answered.note { reply.headers.append(("X-Realtime-Not-Applied", note)) }
        return reply
    }

    /// The seed's `GET /v1/NAME/stops/STOP/departures?time=HH:MM`: departures from the stop
    /// at that time today (in the stop's feed's time zone; now without a time).
    private func seedDepartures(name: String, stop: String, parameters: [(name: String, value: String)]) async throws -> Reply {
        let version = try version(name)
        var rest = parameters.filter { $0.name != "time" }
        if rest.contains(where: { $0.name == "stop" || $0.name == "at" }) {
            throw ServerFailure(status: 400, code: "bad_option", message: "the stop is in the path and the time is ?time=HH:MM")
        }
        rest.append(("stop", stop))
        if let time = parameters.first(where: { $0.name == "time" })?.value {
            let parts = time.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3,
                parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let hours = Int(parts[0]), hours < 24, let minutes = Int(parts[1]), minutes < 60
            else { throw ServerFailure(status: 400, code: "bad_time", message: "time must be HH:MM (00:00 to 23:59)") }
            let feed = parameters.first { $0.name == "feed" }?.value
            let zone = try version.timeZone(ofStop: stop, feed: feed)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let today = calendar.dateComponents([.year, .month, .day], from: state.configuration.now)
            rest.append(("at", String(format: "%04d-%02d-%02dT%@", today.year ?? 1970, today.month ?? 1, today.day ?? 1, time)))
        }
        return try await answer("departures", parameters: rest, from: version)
    }

    /// `POST /v1/NAME/batch`: a body of query lines, answered line by line.
    private func batch(_ request: Request, bundle version: ServedBundle) async throws -> Reply {
        let limit = state.configuration.maxBodyBytes
        let body: ByteBuffer
        do {
            body = try await withTimeout(seconds: state.configuration.bodyTimeout) { try await request.body.collect(upTo: limit) }
        } catch is TimedOut {
            throw ServerFailure(
                status: 408, code: "body_timeout", message: "the body did not arrive within \(Int(state.configuration.bodyTimeout)) s")
        } catch {
            throw ServerFailure(status: 413, code: "body_too_large", message: "a batch body is at most \(limit) bytes")
        }
        let lines = try BatchAnswers(Array(buffer: body))
        let live = version.live?.snapshot
        let now = state.configuration.now
        let context = CommandContext(now: now, live: live.map { ($0, now) })
        let bundle = version.bundle
        let answers = try await state.run { lines.answered(by: bundle, context: context) }
        var reply = Reply(status: 200, body: answers, contentType: "application/x-ndjson")
        reply.version = version
        reply.isLive = live != nil
        reply.cacheControl = "no-store"
        return reply
    }

    private func readiness() -> Reply {
        var reasons = state.unreadyReasons()
        if state.isDraining { reasons.append("shutting down") }
        var reply = (try? Reply(json: Readiness(ready: reasons.isEmpty, reasons: reasons))) ?? Reply(status: 500, text: "")
        reply.status = reasons.isEmpty ? 200 : 503
        reply.cacheControl = "no-store"
        return reply
    }
}

/// What a query produced on a query thread.
struct Answered: Sendable {
    var body: [UInt8]
    var found: Bool
    var isLive: Bool
    var note: String?
}

/// `/readyz`'s body.
struct Readiness: Encodable {
    var ready: Bool
    var reasons: [String]
}

struct TimedOut: Error {}

/// `body`'s result, or `TimedOut` after `seconds` (the body is then cancelled).
func withTimeout<T: Sendable>(seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            throw TimedOut()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut() }
        return first
    }
}
