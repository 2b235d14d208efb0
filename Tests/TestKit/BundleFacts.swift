import BundleFormat
import TransitSQLite

/// Facts read straight from a bundle file with SQL, for tests that compare bundles without
/// going through the runtime (and, in async tests, without its async overloads).
public enum BundleFacts {
    /// The content hash the compiler recorded in `metadata`.
    public static func contentHash(_ path: String) throws -> String {
        let db = try SQLiteDatabase(path: path, writable: false)
        let q = try db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
        guard try q.step() else { return "" }
        return q.string(0)
    }
}
