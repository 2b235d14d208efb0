import AppHTTP
import Foundation
import SyncFormat

/// The device's side of `/v1/sync`: a push, a page of a pull, each answer decoded or its
/// failure read as a `SyncError`.
struct SyncConnection: Sendable {
    let server: SyncServer
    let http: any AppHTTP

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let body = try JSONEncoder().encode(request)
        let answer = try await send(
            AppRequest(method: "POST", url: try url("push", []), headers: headers + [("Content-Type", "application/json")], body: body))
        return try decode(SyncPushResponse.self, answer)
    }

    func pull(cursor: String?, deviceID: String, limit: Int) async throws -> SyncPullResponse {
        var query = [("device_id", deviceID), ("limit", String(limit))]
        if let cursor { query.append(("cursor", cursor)) }
        let answer = try await send(AppRequest(url: try url("pull", query), headers: headers))
        return try decode(SyncPullResponse.self, answer)
    }

    func devices() async throws -> [SyncDeviceRecord] {
        try decode(SyncDeviceList.self, try await send(AppRequest(url: try url("devices", []), headers: headers))).devices
    }

    private var headers: [(String, String)] { [("Authorization", "Bearer " + server.token), ("Accept", "application/json")] }

    private func url(_ endpoint: String, _ query: [(String, String)]) throws -> URL {
        guard var components = URLComponents(url: server.url, resolvingAgainstBaseURL: false) else {
            throw SyncError.invalid("cannot make a URL of \(server.url)")
        }
        let path = components.percentEncodedPath
        components.percentEncodedPath = (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/v1/sync/" + endpoint
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw SyncError.invalid("cannot make a URL of \(server.url)") }
        return url
    }

    private func send(_ request: AppRequest) async throws -> AppAnswer {
        let answer: AppAnswer
        do { answer = try await http.send(request, timeout: server.timeout) } catch { throw SyncError.unreachable("\(error)") }
        switch answer.status {
        case 200: return answer
        case 401: throw SyncError.unauthorised
        case 429, 500...: throw SyncError.server(status: answer.status, message: Self.message(answer))
        default: throw SyncError.refused(status: answer.status, reason: Self.message(answer))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ answer: AppAnswer) throws -> T {
        do { return try JSONDecoder().decode(type, from: answer.body) } catch {
            throw SyncError.server(status: answer.status, message: "an answer that does not decode (\(error))")
        }
    }

    /// The server's JSON error message, or the status.
    private static func message(_ answer: AppAnswer) -> String {
        struct Body: Decodable {
            struct Inner: Decodable { var message: String }
            var error: Inner
        }
        return (try? JSONDecoder().decode(Body.self, from: answer.body))?.error.message.prefix(500).description
            ?? "HTTP \(answer.status)"
    }
}
