import Foundation
import Hummingbird
import NIOCore
import SyncFormat
import TransitJSON

/// Where a sync answer is made (docs/sync-semantics.md):
///
/// ```
/// POST /v1/sync/push           {"device":…,"actions":[…]}  → each action's outcome
/// GET  /v1/sync/pull?cursor=C  the rider's entities changed after C, and the next cursor
/// GET  /v1/sync/devices        the rider's devices and when each last synced
/// ```
///
/// Every request carries `Authorization: Bearer TOKEN`; the rider is the token's, never a
/// payload's. Answers are `no-store` and hold the rider's own data only.
struct SyncResponder: Sendable {
    let storage: any SyncStorage
    let authentication: RiderAuthentication
    let bodyTimeout: TimeInterval
    let clock: @Sendable () -> Date

    /// Positions a pull lists at most by default, and at most when asked.
    static let defaultPullLimit = 1_000
    static let maxPullLimit = 10_000

    func reply(_ request: Request, endpoint: String, parameters: [(name: String, value: String)]) async throws -> Reply {
        let method = request.method
        switch endpoint {
        case "push": guard method == .post else { throw Self.methodNotAllowed(method) }
        case "pull", "devices": guard method == .get else { throw Self.methodNotAllowed(method) }
        default: throw ServerFailure(status: 404, code: "not_found", message: "the sync endpoints are push, pull and devices")
        }
        let now = clock()
        guard let rider = try await authentication.rider(authorization: request.headers[.authorization], now: now) else {
            throw ServerFailure(
                status: 401, code: "unauthorized", message: "a sync request needs Authorization: Bearer TOKEN with a valid token")
        }
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        var reply: Reply
        switch endpoint {
        case "push": reply = try await push(request, rider: rider, now: millis)
        case "pull": reply = try await pull(parameters, rider: rider, now: millis)
        default: reply = try Reply(json: SyncDeviceList(devices: try await storage.devices(rider: rider)))
        }
        reply.cacheControl = "no-store"
        reply.headers.append(("Vary", "Authorization"))
        return reply
    }

    private func push(_ request: Request, rider: String, now: Int64) async throws -> Reply {
        let limit = SyncRules.maxPushBytes
        let body: ByteBuffer
        do {
            body = try await withTimeout(seconds: bodyTimeout) { try await request.body.collect(upTo: limit) }
        } catch is TimedOut {
            throw ServerFailure(status: 408, code: "body_timeout", message: "the body did not arrive within \(Int(bodyTimeout)) s")
        } catch {
            throw ServerFailure(status: 413, code: "body_too_large", message: "a push is at most \(limit) bytes (1 MB)")
        }
        let bytes = Array(buffer: body)
        guard UTF8Check.string(bytes) != nil else {
            throw ServerFailure(status: 400, code: "bad_body", message: "a push body is UTF-8 JSON")
        }
        let push: SyncPushRequest
        do {
            push = try JSONDecoder().decode(SyncPushRequest.self, from: Data(bytes))
        } catch {
            throw ServerFailure(
                status: 400, code: "bad_body", message: "a push body is {\"device\":{…},\"actions\":[…]}: \(Self.describe(error))")
        }
        guard push.actions.count <= SyncRules.maxActionsPerPush else {
            throw ServerFailure(
                status: 413, code: "too_many_actions",
                message: "a push holds at most \(SyncRules.maxActionsPerPush) actions (this one has \(push.actions.count))")
        }
        if let problem = push.device.problem { throw ServerFailure(status: 400, code: "bad_device", message: problem) }
        let outcomes = try await storage.push(rider: rider, device: push.device, actions: push.actions, now: now)
        return try Reply(json: SyncPushResponse(outcomes: outcomes, serverTime: now))
    }

    private func pull(_ parameters: [(name: String, value: String)], rider: String, now: Int64) async throws -> Reply {
        var after: Int64 = 0
        var limit = Self.defaultPullLimit
        var device: String?
        for (name, value) in parameters {
            switch name {
            case "cursor" where !value.isEmpty:
                guard value.utf8.count <= 19, value.utf8.allSatisfy({ (48...57).contains($0) }), let position = Int64(value) else {
                    throw ServerFailure(status: 400, code: "bad_cursor", message: "cursor is one a pull answered (or none)")
                }
                after = position
            case "cursor": break
            case "limit":
                guard let number = Int(value), (1...Self.maxPullLimit).contains(number) else {
                    throw ServerFailure(status: 400, code: "bad_option", message: "limit is 1 to \(Self.maxPullLimit)")
                }
                limit = number
            case "device_id":
                if let problem = SyncRules.problem(withID: value, naming: "device_id") {
                    throw ServerFailure(status: 400, code: "bad_option", message: problem)
                }
                device = value
            default:
                throw ServerFailure(
                    status: 400, code: "bad_option", message: "a pull takes cursor, limit and device_id (not \(name.prefix(50)))")
            }
        }
        let page = try await storage.pull(rider: rider, after: after, limit: limit, device: device, now: now)
        return try Reply(json: SyncPullResponse(records: page.records, cursor: String(page.last), more: page.more))
    }

    private static func methodNotAllowed(_ method: HTTPRequest.Method) -> ServerFailure {
        ServerFailure(status: 405, code: "method_not_allowed", message: "\(method.rawValue) is not answered here")
    }

    /// A decoding error as a person reads it (the path to the bad value, what was wrong).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().prefix(200).description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default: return "not valid"
        }
    }
}
