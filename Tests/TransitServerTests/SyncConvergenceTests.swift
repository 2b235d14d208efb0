import Foundation
import SyncFormat
import TestKit
import TransitRuntime
import TransitSync
import XCTest

/// The contract's own check (docs/sync-semantics.md, "How it is checked"): three devices
/// make hundreds of seeded random changes with offline periods, answers dropped after the
/// server applied a push (`CuttingProxy`), server restarts and drifting clocks; then every
/// device retries what failed and syncs twice. Afterwards the server and every device hold
/// exactly what `SyncReferenceModel` made of the pushes that reached the server, no action
/// was applied twice (one sent again got the same outcome), none was lost.
final class SyncConvergenceTests: XCTestCase {
    func testThreeDevicesConvergeOnSQLite() async throws { try await converge(.sqlite, seed: SplitMix64.testSeed(0x5EED_0069)) }
    func testThreeDevicesConvergeOnPostgres() async throws { try await converge(.postgres, seed: SplitMix64.testSeed(0x0069_5EED)) }

    /// A device's clock the test moves.
    final class DeviceClock: @unchecked Sendable {
        let millis = Locked<Int64>(0)
        var now: Date { Date(timeIntervalSince1970: Double(millis.withLock { $0 }) / 1000) }
    }

    private func converge(_ backend: SyncBackend, seed: UInt64, steps: Int = 400) async throws {
        print("SyncConvergenceTests \(backend.rawValue): seed \(seed) (TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(state: seed)
        let (address, keeper) = try backend.make()
        defer { withExtendedLifetime(keeper) {} }
        let tokenFile = try SyncCommands.token("rider-\(backend.rawValue)", address: address)
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var server = try SyncCommands.server(address)
        let proxy = try CuttingProxy(upstream: server.port)
        defer { proxy.stop() }
        // A quarter of push answers and a tenth of pull answers are lost after the server answered.
        let drops = Locked(SplitMix64(state: seed ^ 0xD50))
        proxy.setDrop { path in
            let draw = drops.withLock { Double($0.next() % 1000) / 1000 }
            return path.hasPrefix("/v1/sync/push") ? draw < 0.25 : draw < 0.10
        }

        let base = syncServerMillis - 3_600_000
        let clocks = (0..<3).map { _ in DeviceClock() }
        var devices: [RiderData] = []
        for (index, clock) in clocks.enumerated() {
            clock.millis.withLock { $0 = base }
            let device = try RiderData(
                directory: TemporaryFolders.make().path, name: "device \(index)", type: "test", clock: { clock.now })
            try await device.setAutoSync(false)
            await device.connect(to: SyncServer(url: URL(string: "http://127.0.0.1:\(proxy.port)")!, token: token, timeout: 10))
            devices.append(device)
        }
        let targets =
            ["strasbourg", "lyon", "paris", "lille", "nantes", "nice"].map { SyncTarget(kind: .city, id: $0) }
            + ["lyon/tcl/BELLECOUR", "paris/ratp/CHATELET"].map { SyncTarget(kind: .stop, id: $0) } + [
                SyncTarget(kind: .route, id: "lyon/tcl/A")
            ]
        var made: Set<String> = []
        var online = [true, true, true]
        var elapsed: Int64 = 0
        var offsets: [Int64] = [0, 0, 0]
        var restarts = 0
        for step in 0..<steps {
            // Clocks: the true time moves 0-20 s; device 1 drifts; device 2 runs a day ahead now and then.
            elapsed += Int64(random.next() % 20_000)
            offsets[1] += Int64(random.next() % 10_001) - 5_000
            if random.next() % 40 == 0 { offsets[2] = offsets[2] == 0 ? 86_400_000 : 0 }
            for (index, clock) in clocks.enumerated() { clock.millis.withLock { $0 = base + elapsed + offsets[index] } }

            let index = Int(random.next() % 3)
            let device = devices[index]
            let draw = random.next() % 100
            switch draw {
            case 0..<40:
                if let action = try await change(device, targets: targets, random: &random) { made.insert(action) }
            case 40..<70:
                if online[index] { _ = try? await device.sync() }
            case 70..<78:
                online[index].toggle()
                await device.setNetworkAvailable(online[index])
            case 78..<80:
                server.terminate()
                restarts += 1
                server = try SyncCommands.server(address)
                proxy.setUpstream(server.port)
            default:
                break
            }
            if step % 100 == 99 { print("step \(step + 1): \(made.count) actions, \(proxy.log.count) exchanges") }
        }

        // Everyone back online, no more losses; failed actions retried; two syncs each.
        proxy.setDrop { _ in false }
        for (index, device) in devices.enumerated() {
            online[index] = true
            await device.setNetworkAvailable(true)
            try await device.retry()
        }
        for _ in 0..<2 {
            for device in devices { try await device.sync() }
        }

        var model = SyncReferenceModel()
        var outcomes: [String: [SyncOutcome]] = [:]
        for exchange in proxy.log where exchange.path.hasPrefix("/v1/sync/push") && exchange.status == 200 {
            let push = try JSONDecoder().decode(SyncPushRequest.self, from: exchange.requestBody)
            for action in push.actions { model.apply(action, serverNow: syncServerMillis) }
            for outcome in try JSONDecoder().decode(SyncPushResponse.self, from: exchange.responseBody).outcomes {
                outcomes[outcome.id, default: []].append(outcome)
            }
        }
        print(
            "\(made.count) actions, \(model.resent) sent again, \(restarts) restarts, \(proxy.log.filter(\.dropped).count) answers dropped")
        XCTAssertGreaterThan(model.resent, 0, "no answer was lost after the server applied it: the test did not test that")
        XCTAssertGreaterThan(restarts, 0)
        for (id, list) in outcomes where list.count > 1 {
            XCTAssertTrue(list.allSatisfy { $0 == list[0] }, "action \(id) answered differently when sent again: \(list)")
        }
        XCTAssertEqual(made.subtracting(model.answered), [], "actions made but never applied by the server")

        // The server: a full pull lists exactly the model's fields and stamps.
        guard let answer = RawHTTP.get(port: server.port, "/v1/sync/pull?limit=10000", headers: ["Authorization": "Bearer " + token])
        else { return XCTFail("no pull answer") }
        let pulled = try JSONDecoder().decode(SyncPullResponse.self, from: answer.body)
        XCTAssertFalse(pulled.more)
        var serverFields: [String: String] = [:]
        for record in pulled.records {
            for (name, field) in record.fields {
                let stamp = field.stamp
                serverFields["\(record.kind.rawValue)/\(record.id).\(name)"] =
                    "\(field.value)@\(stamp.timestamp)/\(stamp.deviceID)/\(stamp.actionID)"
            }
        }
        let expected = model.fieldsWithStamps
        for key in Set(serverFields.keys).union(expected.keys).sorted() where serverFields[key] != expected[key] {
            XCTFail("server \(key): \(serverFields[key] ?? "missing"), model \(expected[key] ?? "missing") (seed \(seed))")
        }

        // Every device: the model's saved items, notes and preferences; every action ended.
        var expectedPreferences = SyncedPreferences()
        for (name, value) in model.preferences {
            switch name {
            case "auto_download_saved": expectedPreferences.autoDownloadSaved = value.bool ?? true
            case "stale_warning_days": expectedPreferences.staleWarningDays = value.int ?? 30
            default: expectedPreferences.pruneAfterDays = value.int ?? 7
            }
        }
        var ended = 0
        for (index, device) in devices.enumerated() {
            let saved = Set(try await device.saved().map { "\($0.target.kind.rawValue)/\($0.target.id)" })
            XCTAssertEqual(saved, model.saved, "device \(index), seed \(seed)")
            for key in saved.symmetricDifference(model.saved) {
                print("DEBUG device \(index) \(device.deviceID) differs on \(key); server \(serverFields[key + ".saved"] ?? "-")")
                for entry in try await device.history() where "\(entry.action.entity.kind.rawValue)/\(entry.action.entity.id)" == key {
                    print(
                        "DEBUG   \(entry.action.type) ts \(entry.action.timestamp) \(entry.action.id) \(entry.status) retry \(entry.retryCount) \(entry.winner.map { "\($0.fields)" } ?? "")"
                    )
                }
                for exchange in proxy.log where exchange.path.hasPrefix("/v1/sync/pull") && exchange.requestBody.isEmpty {
                    let text = String(decoding: exchange.responseBody, as: UTF8.self)
                    if text.contains(key.split(separator: "/").last.map(String.init) ?? "") && exchange.path.contains(device.deviceID) {
                        print("DEBUG   pull \(exchange.path) dropped \(exchange.dropped): \(text.prefix(300))")
                    }
                }
            }
            var notes: [String: String] = [:]
            for note in try await device.notes() { notes[note.id] = "\(note.target.kind.rawValue)/\(note.target.id)|\(note.text)" }
            XCTAssertEqual(notes, model.notes, "device \(index), seed \(seed)")
            let preferences = try await device.preferences()
            XCTAssertEqual(preferences, expectedPreferences, "device \(index), seed \(seed)")
            let history = try await device.history()
            XCTAssertEqual(Set(history.map(\.action.id)).count, history.count, "an action twice in one outbox")
            for entry in history {
                XCTAssertTrue(
                    [.success, .conflict].contains(entry.status), "\(entry.action.id) ended \(entry.status): \(entry.error ?? "")")
                if entry.status == .conflict { XCTAssertNotNil(entry.winner, "a conflict without what won") }
            }
            ended += history.count
            let waiting = try await device.pendingCount()
            XCTAssertEqual(waiting, 0)
            await device.close()
        }
        XCTAssertEqual(ended, made.count, "every action made ends in one outbox")
        server.terminate()
    }

    /// One random local change; answers its action's id (nil when none was made).
    private func change(_ device: RiderData, targets: [SyncTarget], random: inout SplitMix64) async throws -> String? {
        let notes = try await device.notes()
        switch random.next() % 10 {
        case 0..<3:
            return try await device.save(targets[Int(random.next() % UInt64(targets.count))]).id
        case 3..<5:
            return try await device.unsave(targets[Int(random.next() % UInt64(targets.count))]).id
        case 5..<7 where notes.count < 25:
            let target = targets[Int(random.next() % UInt64(targets.count))]
            let note = try await device.addNote(about: target, text: "note \(random.next() % 1000) on \(target.id)")
            return try await device.history().last { $0.action.entity.id == note.id }?.action.id
        case 7 where !notes.isEmpty:
            let note = notes[Int(random.next() % UInt64(notes.count))]
            return try await device.editNote(note.id, text: "edit \(random.next() % 1000)").id
        case 8 where !notes.isEmpty:
            return try await device.deleteNote(notes[Int(random.next() % UInt64(notes.count))].id).id
        default:
            var preferences = try await device.preferences()
            preferences.staleWarningDays = 1 + Int(random.next() % 15)
            if random.next() % 2 == 0 { preferences.autoDownloadSaved.toggle() }
            return try await device.setPreferences(preferences)?.id
        }
    }
}
