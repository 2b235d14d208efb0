import Foundation
import SyncFormat
import TestKit
import TransitStore
import TransitSync
import XCTest

/// The rider's data follows the store's connectivity monitor: a change made while the store
/// is offline waits (no attempt), and the store going back online syncs it without being asked.
final class SyncConnectivityTests: XCTestCase {
    func testGoingBackOnlineSyncsTheRidersChanges() async throws {
        let (address, keeper) = try SyncBackend.sqlite.make()
        defer { withExtendedLifetime(keeper) {} }
        let tokenFile = try SyncCommands.token("anna", address: address)
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try SyncCommands.server(address)
        defer { server.terminate() }
        let folder = TemporaryFolders.make()
        let monitor = ConnectivityMonitor(.offline)
        let store = try BundleStore(directory: folder.path, connectivity: monitor, clock: { Date(timeIntervalSince1970: 1_780_315_200) })
        let rider = try RiderData(
            directory: folder.path, store: store, name: "phone", type: "test", clock: { Date(timeIntervalSince1970: 1_780_315_200) })
        await rider.connect(to: SyncServer(url: URL(string: server.base)!, token: token, timeout: 10))
        let follow = Task { await rider.followConnectivity() }
        defer { follow.cancel() }
        // Offline: the change waits in the outbox, with no attempt counted.
        let heard = await TestClock.waitAsync(upTo: 10) { await !rider.isNetworkAvailable }
        XCTAssertTrue(heard, "the rider heard the store is offline")
        _ = try await rider.save(SyncTarget(kind: .city, id: "strasbourg"))
        let waiting = try await rider.pendingCount()
        XCTAssertEqual(waiting, 1)
        let attempts = try await rider.history().first?.retryCount
        XCTAssertEqual(attempts, 0, "offline: no attempt")
        // Back online (as the store's watch or the platform says): synced by itself.
        monitor.report(.online)
        let synced = await TestClock.waitAsync(upTo: 30) { (try? await rider.pendingCount()) == 0 }
        XCTAssertTrue(synced, "the outbox emptied once the store was online")
        await rider.close()
        follow.cancel()
        await follow.value
    }
}
