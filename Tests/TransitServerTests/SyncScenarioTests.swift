import Foundation
import TestKit
import XCTest

/// The contract's scenario and its conflict rules (docs/sync-semantics.md), driven from the
/// command line against a real `transit-server` on loopback, on SQLite and on PostgreSQL.
final class SyncScenarioTests: XCTestCase {
    func testOfflineScenarioReachesASecondDeviceOnSQLite() throws { try offlineScenario(.sqlite) }
    func testOfflineScenarioReachesASecondDeviceOnPostgres() throws { try offlineScenario(.postgres) }
    func testConflictsSettleByTheWrittenRuleOnSQLite() throws { try conflicts(.sqlite) }
    func testConflictsSettleByTheWrittenRuleOnPostgres() throws { try conflicts(.postgres) }

    /// Offline (no server yet): save two cities, unsave one, add a note; the outbox holds the
    /// four actions. Then the server starts, a sync empties the outbox, and a second device's
    /// sync shows the saved city and the note.
    private func offlineScenario(_ backend: SyncBackend) throws {
        let (address, keeper) = try backend.make()
        defer { withExtendedLifetime(keeper) {} }
        let token = try SyncCommands.token("anna", address: address)
        let phone = TemporaryFolders.make()
        let tablet = TemporaryFolders.make()
        let morning = "2026-06-01T08:00:00Z"
        try SyncCommands.store(phone, ["save", "city", "strasbourg"], now: morning)
        try SyncCommands.store(phone, ["save", "city", "lyon"], now: morning)
        try SyncCommands.store(phone, ["unsave", "city", "lyon"], now: morning)
        let added = try SyncCommands.store(phone, ["note", "add", "city", "strasbourg", "Tram A from the station"], now: morning)
        let noteID = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(UUID(uuidString: noteID), noteID)

        // Offline: the sync fails, nothing is lost, the outbox shows the actions in order.
        let unreachable = try SyncCommands.store(
            phone, ["sync", "--server", "http://127.0.0.1:\(try ServerProcess.freePort())", "--token-file", token.path],
            now: morning, expect: 9)
        XCTAssertTrue(unreachable.stderr.contains("cannot be reached"), unreachable.stderr)
        let pending = try SyncCommands.json(phone, ["pending"], now: morning) as? [[String: Any]] ?? []
        XCTAssertEqual(pending.map { ($0["action"] as? [String: Any])?["type"] as? String }, ["SAVE", "SAVE", "UNSAVE", "ADD_NOTE"])
        XCTAssertEqual(pending.map { $0["status"] as? String }, Array(repeating: "PENDING", count: 4))
        XCTAssertEqual(pending.map { $0["retry_count"] as? Int }, Array(repeating: 1, count: 4), "the failed attempt is counted")
        let saved = try SyncCommands.json(phone, ["saved"]) as? [[String: Any]] ?? []
        XCTAssertEqual(saved.compactMap { ($0["target"] as? [String: Any])?["id"] as? String }, ["strasbourg"])

        let server = try SyncCommands.server(address)
        defer { server.terminate() }
        let report = try SyncCommands.sync(phone, server: server, token: token, now: morning)
        let statuses = (report["actions"] as? [[String: Any]] ?? []).map { $0["status"] as? String }
        XCTAssertEqual(statuses, Array(repeating: "SUCCESS", count: 4))
        XCTAssertEqual((try SyncCommands.json(phone, ["pending"]) as? [Any])?.count, 0)

        try SyncCommands.sync(tablet, server: server, token: token, now: morning)
        let tabletSaved = try SyncCommands.json(tablet, ["saved"]) as? [[String: Any]] ?? []
        XCTAssertEqual(tabletSaved.compactMap { ($0["target"] as? [String: Any])?["id"] as? String }, ["strasbourg"])
        let notes = try SyncCommands.json(tablet, ["note", "list", "city", "strasbourg"]) as? [[String: Any]] ?? []
        XCTAssertEqual(notes.map { $0["id"] as? String }, [noteID])
        XCTAssertEqual(notes.map { $0["text"] as? String }, ["Tram A from the station"])

        // The server lists both devices; a sync with nothing new sends nothing and pulls nothing.
        let again = try SyncCommands.sync(phone, server: server, token: token, now: morning)
        XCTAssertEqual((again["actions"] as? [Any])?.count, 0)
        let devices = RawHTTP.get(
            port: server.port, "/v1/sync/devices",
            headers: ["Authorization": "Bearer " + (try String(contentsOf: token, encoding: .utf8)).trimmingCharacters(in: .newlines)])
        let list = (try? JSONSerialization.jsonObject(with: devices?.body ?? Data())) as? [String: Any]
        XCTAssertEqual((list?["devices"] as? [Any])?.count, 2, devices?.text ?? "")
    }

    /// Two devices edit one note offline: the later edit wins on both once each synced
    /// twice, and the earlier device's action ends CONFLICT with the winning text; a delete
    /// beats a later edit; a device whose clock is a day ahead does not win later edits.
    private func conflicts(_ backend: SyncBackend) throws {
        let (address, keeper) = try backend.make()
        defer { withExtendedLifetime(keeper) {} }
        let token = try SyncCommands.token("ben", address: address)
        let server = try SyncCommands.server(address)
        defer { server.terminate() }
        let phone = TemporaryFolders.make()
        let laptop = TemporaryFolders.make()
        let nine = "2026-06-01T09:00:00Z"
        let added = try SyncCommands.store(phone, ["note", "add", "stop", "lyon/tcl/BELLECOUR", "Exit B"], now: nine)
        let note = String(decoding: added.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try SyncCommands.sync(phone, server: server, token: token, now: nine)
        try SyncCommands.sync(laptop, server: server, token: token, now: nine)

        // Offline edits: the laptop's at 10:00, the phone's at 10:05 (the later one).
        try SyncCommands.store(laptop, ["note", "edit", note, "Exit A (laptop)"], now: "2026-06-01T10:00:00Z")
        try SyncCommands.store(phone, ["note", "edit", note, "Exit C (phone)"], now: "2026-06-01T10:05:00Z")
        // The phone syncs first, the laptop's earlier edit then loses.
        try SyncCommands.sync(phone, server: server, token: token, now: "2026-06-01T10:10:00Z")
        let lost = try SyncCommands.sync(laptop, server: server, token: token, now: "2026-06-01T10:10:00Z")
        let entry = (lost["actions"] as? [[String: Any]])?.first
        XCTAssertEqual(entry?["status"] as? String, "CONFLICT")
        let winner = ((entry?["winner"] as? [String: Any])?["fields"] as? [String: Any])?["text"] as? [String: Any]
        XCTAssertEqual(winner?["value"] as? String, "Exit C (phone)")
        for device in [phone, laptop] {
            try SyncCommands.sync(device, server: server, token: token, now: "2026-06-01T10:20:00Z")
            try SyncCommands.sync(device, server: server, token: token, now: "2026-06-01T10:20:00Z")
            let notes = try SyncCommands.json(device, ["note", "list"]) as? [[String: Any]] ?? []
            XCTAssertEqual(notes.map { $0["text"] as? String }, ["Exit C (phone)"], device.path)
        }

        // A delete (laptop, 11:00) beats a later edit (phone, 11:30) that arrives after it.
        try SyncCommands.store(laptop, ["note", "rm", note], now: "2026-06-01T11:00:00Z")
        try SyncCommands.store(phone, ["note", "edit", note, "Exit D"], now: "2026-06-01T11:30:00Z")
        try SyncCommands.sync(laptop, server: server, token: token, now: "2026-06-01T11:40:00Z")
        let afterDelete = try SyncCommands.sync(phone, server: server, token: token, now: "2026-06-01T11:40:00Z")
        XCTAssertEqual((afterDelete["actions"] as? [[String: Any]])?.first?["status"] as? String, "CONFLICT")
        for device in [phone, laptop] {
            XCTAssertEqual((try SyncCommands.json(device, ["note", "list"]) as? [Any])?.count, 0, device.path)
        }

        // A clock a day ahead: its write is stamped with the server's clock (12:00), so the
        // laptop's edit at 12:01 (real time, its own clock) wins after it.
        let added2 = try SyncCommands.store(laptop, ["note", "add", "city", "lyon", "first"], now: "2026-06-01T11:50:00Z")
        let second = String(decoding: added2.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try SyncCommands.sync(laptop, server: server, token: token, now: "2026-06-01T11:50:00Z")
        try SyncCommands.sync(phone, server: server, token: token, now: "2026-06-02T12:00:00Z")
        try SyncCommands.store(phone, ["note", "edit", second, "from the future"], now: "2026-06-02T12:00:00Z")
        try SyncCommands.sync(phone, server: server, token: token, now: "2026-06-02T12:00:00Z")
        try SyncCommands.store(laptop, ["note", "edit", second, "later, by a true clock"], now: "2026-06-01T12:01:00Z")
        let later = try SyncCommands.sync(laptop, server: server, token: token, now: "2026-06-01T12:01:00Z")
        XCTAssertEqual((later["actions"] as? [[String: Any]])?.first?["status"] as? String, "SUCCESS")
        try SyncCommands.sync(phone, server: server, token: token, now: "2026-06-02T12:00:00Z")
        for device in [phone, laptop] {
            let notes = try SyncCommands.json(device, ["note", "list", "city", "lyon"]) as? [[String: Any]] ?? []
            XCTAssertEqual(notes.map { $0["text"] as? String }, ["later, by a true clock"], device.path)
        }
    }
}
