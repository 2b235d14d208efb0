import BundleFormat
import Foundation
import TransitSQLite

/// What must hold in a store's folder after any operation or crash-and-resume: every
/// installed bundle passes `PRAGMA integrity_check` and its content hash, and no temporary
/// file is left. Returns the problems found (empty when all is well).
///
/// ```swift
/// XCTAssertEqual(StoreFolderCheck.problems(in: folder), [])
/// ```
public enum StoreFolderCheck {
    public static func problems(in folder: URL) -> [String] {
        var problems = leftovers(in: folder).map { "left behind: \($0)" }
        let bundles = folder.appendingPathComponent("bundles")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: bundles.path)) ?? [] where name.hasSuffix(".db") {
            let path = bundles.appendingPathComponent(name).path
            do {
                let db = try SQLiteDatabase(path: path, writable: false)
                let check = try db.prepare("PRAGMA integrity_check")
                _ = try check.step()
                if check.string(0) != "ok" { problems.append("\(name): integrity_check says \(check.string(0))") }
                check.reset()
                let recorded = try db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
                _ = try recorded.step()
                if try ContentHash.compute(db) != recorded.string(0) { problems.append("\(name): content hash differs from its record") }
                recorded.reset()
            } catch {
                problems.append("\(name): \(error)")
            }
        }
        return problems
    }

    /// Partial downloads and dot-files (temporary installs) in the store's folder.
    public static func leftovers(in folder: URL) -> [String] {
        let manager = FileManager.default
        let parts = (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent("downloads").path)) ?? []
        let hidden = ((try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent("bundles").path)) ?? []).filter {
            $0.hasPrefix(".")
        }
        return parts + hidden
    }
}
