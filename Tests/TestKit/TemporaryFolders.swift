import Foundation
import XCTest

/// Fresh temporary folders for tests, all removed when the test process exits (an `atexit`
/// handler installed on first use does it; XCTest's bundle observer is not called on Linux
/// for observers added during the run).
public enum TemporaryFolders {
    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var made: [URL] = []
    nonisolated(unsafe) private static var installed = false

    /// A new empty folder under the system's temporary folder.
    public static func make() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("transit-tests-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            XCTFail("cannot create \(url.path): \(error)")
        }
        lock.lock()
        if !installed {
            installed = true
            atexit { TemporaryFolders.removeAll() }
        }
        made.append(url)
        lock.unlock()
        return url
    }

    static func removeAll() {
        lock.lock()
        let urls = made
        made = []
        lock.unlock()
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
