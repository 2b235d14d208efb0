import Crypto
import Foundation
import SyncFormat
import TestKit
import XCTest

/// Who may see what (docs/sync-semantics.md): tokens, riders kept apart, payloads not
/// trusted, limits refused with their reason; JWTs from an app's own login.
final class SyncSecurityTests: XCTestCase {
    private static let secret = Data((0..<32).map { UInt8($0 &* 7 &+ 3) })

    private func request(
        _ server: ServerUnderTest, _ method: String, _ target: String, token: String?, body: [UInt8] = []
    ) -> HTTPAnswer? {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        return RawHTTP.exchange(port: server.port, Array((head + "\r\n").utf8) + body)
    }

    private func push(_ actions: [SyncAction], extra: String = "") throws -> [UInt8] {
        let device = SyncDevice(id: "test-device", name: "test", type: "test", appVersion: "1")
        var body = try JSONEncoder().encode(SyncPushRequest(device: device, actions: actions))
        if !extra.isEmpty {
            body.removeLast()  // the closing brace
            body += Data(("," + extra + "}").utf8)
        }
        return Array(body)
    }

    private func action(_ type: SyncAction.ActionType, _ entity: SyncEntity, _ payload: [String: SyncValue] = [:]) -> SyncAction {
        SyncAction(
            id: UUID().uuidString.lowercased(), type: type, entity: entity, payload: payload, timestamp: syncServerMillis - 1000,
            deviceID: "test-device")
    }

    private func outcomes(_ answer: HTTPAnswer?) throws -> [SyncOutcome] {
        guard let answer, answer.status == 200 else {
            XCTFail("push: \(answer?.status ?? 0) \(answer?.text ?? "")")
            return []
        }
        return try JSONDecoder().decode(SyncPushResponse.self, from: answer.body).outcomes
    }

    private func jwt(_ claims: [String: Any], alg: String = "HS256", key: Data = secret) throws -> String {
        func encode(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = encode(try JSONSerialization.data(withJSONObject: ["alg": alg, "typ": "JWT"]))
        let payload = encode(try JSONSerialization.data(withJSONObject: claims))
        let signature = HMAC<Crypto.SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: key))
        return "\(header).\(payload).\(alg == "none" ? "" : encode(Data(signature)))"
    }

    func testRidersSeeOnlyTheirOwnDataAndLimitsAreRefusedWithTheirReason() throws {
        let (address, _) = try SyncBackend.sqlite.make()
        let anna = try String(contentsOf: try SyncCommands.token("anna", address: address), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let ben = try String(contentsOf: try SyncCommands.token("ben", address: address), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let secretFile = TemporaryFolders.make().appendingPathComponent("jwt.key")
        try Self.secret.write(to: secretFile)
        let server = try SyncCommands.server(address, extra: ["--jwt-secret-file", secretFile.path])
        defer { server.terminate() }

        // No token, another scheme, a wrong token: 401 on every endpoint, nothing else said.
        for (method, target) in [("POST", "/v1/sync/push"), ("GET", "/v1/sync/pull"), ("GET", "/v1/sync/devices")] {
            XCTAssertEqual(request(server, method, target, token: nil)?.status, 401, target)
            XCTAssertEqual(request(server, method, target, token: "tt_" + String(repeating: "A", count: 43))?.status, 401, target)
            let basic =
                "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\nAuthorization: Basic YW5uYTphbm5h\r\n\r\n"
            XCTAssertEqual(RawHTTP.exchange(port: server.port, Array(basic.utf8))?.status, 401, target)
        }

        // Anna's note.
        let note = SyncEntity(kind: .note, id: UUID().uuidString.lowercased())
        let secretText = "Anna's door code 4711"
        let added = try outcomes(
            request(
                server, "POST", "/v1/sync/push", token: anna,
                body: try push([
                    action(.addNote, note, ["target": .target(SyncTarget(kind: .city, id: "lyon")), "text": .text(secretText)])
                ])))
        XCTAssertEqual(added.map(\.status), [.success])

        // Ben cannot read, change or delete it, by its id or with a forged rider in the payload.
        let benPull = request(server, "GET", "/v1/sync/pull", token: ben)
        XCTAssertEqual(benPull?.status, 200)
        XCTAssertFalse(benPull?.text.contains(secretText) ?? true)
        XCTAssertFalse(benPull?.text.contains(note.id) ?? true)
        let edit = action(.updateNote, note, ["text": .text("Ben was here")])
        let delete = action(.deleteNote, note)
        let forged = request(server, "POST", "/v1/sync/push", token: ben, body: try push([edit, delete], extra: "\"rider\":\"anna\""))
        let refusals = try outcomes(forged)
        XCTAssertEqual(refusals.map(\.status), [.refused, .refused])
        XCTAssertEqual(refusals.first?.reason, "no note with this id")
        XCTAssertFalse(forged?.text.contains(secretText) ?? true)
        let benSave = action(.save, SyncEntity(SyncTarget(kind: .city, id: "bens-city")))
        XCTAssertEqual(
            try outcomes(request(server, "POST", "/v1/sync/push", token: ben, body: try push([benSave], extra: "\"rider\":\"anna\"")))
                .map(\.status), [.success])
        let annaPull = request(server, "GET", "/v1/sync/pull", token: anna)?.text ?? ""
        XCTAssertTrue(annaPull.contains(secretText), annaPull)
        XCTAssertFalse(annaPull.contains("Ben was here"))
        XCTAssertFalse(annaPull.contains("bens-city"), "a forged rider id put Ben's change in Anna's data")
        XCTAssertTrue(request(server, "GET", "/v1/sync/pull", token: ben)?.text.contains("bens-city") ?? false)
        XCTAssertFalse(request(server, "GET", "/v1/sync/devices", token: ben)?.text.contains("anna") ?? true)

        // Limits, each refused with its reason, never truncated.
        let tooMany = (0...SyncRules.maxActionsPerPush).map { index in action(.save, SyncEntity(SyncTarget(kind: .stop, id: "s\(index)"))) }
        let many = request(server, "POST", "/v1/sync/push", token: ben, body: try push(tooMany))
        XCTAssertEqual(many?.status, 413)
        XCTAssertTrue(many?.text.contains("at most 500 actions") ?? false, many?.text ?? "")
        let huge = request(server, "POST", "/v1/sync/push", token: ben, body: Array(repeating: 0x20, count: SyncRules.maxPushBytes + 1))
        XCTAssertEqual(huge?.status, 413)
        XCTAssertTrue(huge?.text.contains("1 MB") ?? false, huge?.text ?? "")
        let long = String(repeating: "x", count: SyncRules.maxNoteCharacters + 1)
        let longNote = action(
            .addNote, SyncEntity(kind: .note, id: UUID().uuidString.lowercased()),
            ["target": .target(SyncTarget(kind: .city, id: "lyon")), "text": .text(long)])
        let refusedLong = try outcomes(request(server, "POST", "/v1/sync/push", token: ben, body: try push([longNote])))
        XCTAssertEqual(refusedLong.map(\.status), [.refused])
        XCTAssertEqual(refusedLong.first?.reason, "a note's text must be 1 to 10000 characters (it has 10001)")
        XCTAssertEqual(request(server, "POST", "/v1/sync/push", token: ben, body: Array("{\"actions\":".utf8))?.status, 400)
        XCTAssertEqual(request(server, "GET", "/v1/sync/pull?cursor=-1", token: ben)?.status, 400)
        XCTAssertEqual(request(server, "GET", "/v1/sync/pull?limit=10001", token: ben)?.status, 400)

        // The device checks the same rules before it queues: nothing reaches the outbox.
        let device = TemporaryFolders.make()
        let local = try SyncCommands.store(device, ["note", "add", "city", "lyon", long], expect: 13)
        XCTAssertTrue(local.stderr.contains("10000 characters"), local.stderr)
        XCTAssertEqual((try SyncCommands.json(device, ["pending"]) as? [Any])?.count, 0)

        // JWTs: HS256 with the configured key, a subject and a future expiry; nothing else.
        let future = Double(syncServerMillis / 1000 + 3600)  // the server checks `exp` by its own clock (--now)
        let carol = try jwt(["sub": "carol", "exp": future])
        XCTAssertEqual(request(server, "GET", "/v1/sync/pull", token: carol)?.status, 200)
        XCTAssertFalse(request(server, "GET", "/v1/sync/pull", token: carol)?.text.contains(secretText) ?? true)
        for refused in [
            try jwt(["sub": "anna", "exp": future], alg: "none"), try jwt(["sub": "anna", "exp": future], alg: "HS384"),
            try jwt(["sub": "anna", "exp": 1_000_000]), try jwt(["sub": "anna"]), try jwt(["exp": future]),
            try jwt(["sub": "anna", "exp": future], key: Data(repeating: 9, count: 32)),
        ] {
            XCTAssertEqual(request(server, "GET", "/v1/sync/pull", token: refused)?.status, 401, refused)
        }
    }
}
