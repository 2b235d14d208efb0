import BundleFormat
import FileIntegrity
import Foundation
import TransitSQLite

/// Why a patch was not applied. The bundle it was given is untouched either way.
package struct PatchRefused: Error, CustomStringConvertible {
    package let description: String
}

/// Applies a `BundlePatch` to a bundle, producing a new file: the patch's checksum, schema
/// and starting hash are checked first; the bundle is copied beside the output, the rows
/// changed in one transaction, the derived search indexes rebuilt, and the result's content
/// hash recomputed and compared with the patch's; only then is the copy synced and renamed
/// over the output (and the folder synced). A crash or a refusal at any point leaves the
/// input and the output path as they were; at worst `.NAME.patching` stays beside the output
/// and the next apply replaces it. Memory stays small: the copy streams, SQLite's cache is
/// bounded and the patch is held once.
///
/// ```swift
/// let hash = try PatchApplier.apply(bundle: "city.db", patch: "city-1-2.patch", output: "city.db")
/// ```
package enum PatchApplier {
    /// Applies the patch file at `patchPath` to `bundlePath`, writing `outputPath` (which may
    /// be `bundlePath` itself: it is replaced atomically). Returns the new content hash.
    @discardableResult
    package static func apply(bundle bundlePath: String, patch patchPath: String, output outputPath: String) throws -> String {
        // The sizes first: a patch larger than `PatchBudget.maxPatchBytes` is not read.
        let base = try size(of: bundlePath, "the bundle")
        let patchBytes = try size(of: patchPath, "the patch")
        guard patchBytes <= PatchBudget.maxPatchBytes(base: base) else {
            throw PatchRefused(
                description: "the patch is \(patchBytes) bytes, more than a patch of a \(base)-byte bundle may be (fetch the whole bundle)")
        }
        guard let data = FileManager.default.contents(atPath: patchPath) else {
            throw PatchRefused(description: "cannot read the patch \(patchPath)")
        }
        let patch: BundlePatch
        do { patch = try BundlePatch(decoding: [UInt8](data)) } catch let error as PatchFormatError {
            throw PatchRefused(description: "\(patchPath): \(error.description)")
        }
        return try apply(bundle: bundlePath, patch: patch, budget: PatchBudget(baseBytes: base, patchBytes: data.count), output: outputPath)
    }

    /// Checks the base and the sections, then applies `patch` within `budget`.
    private static func apply(bundle bundlePath: String, patch: BundlePatch, budget: PatchBudget, output outputPath: String) throws
        -> String
    {
        var budget = budget
        try checkBase(bundlePath, patch)
        // Each table once: a second section of a table is a crafted patch.
        var tables = Set<String>()
        for section in patch.sections where !tables.insert(section.table).inserted {
            throw PatchRefused(description: "the patch changes table \(section.table) twice")
        }
        let output = URL(fileURLWithPath: outputPath)
        let folder = output.deletingLastPathComponent().path
        let temporary = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).patching").path
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try FileSync.copy(bundlePath, to: temporary)
            try applyRows(patch, to: temporary, budget: &budget)
            try FileSync.sync(temporary)
            guard rename(temporary, outputPath) == 0 else {
                throw PatchRefused(description: "cannot move the patched bundle into place: \(String(cString: strerror(errno)))")
            }
            try FileSync.sync(folder)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let error = error as? SQLiteError { throw PatchRefused(description: "cannot apply the patch: \(error.message)") }
            if let error = error as? FileSync.Failure { throw PatchRefused(description: error.description) }
            throw error
        }
        return patch.toHash
    }

    /// The bundle must be of the patch's schema and have its starting content hash.
    private static func checkBase(_ path: String, _ patch: BundlePatch) throws {
        do {
            let db = try SQLiteDatabase(path: path, writable: false)
            guard let version = try BundleSchema.headerVersion(of: db) else {
                throw PatchRefused(description: "\(path) is not a transit bundle")
            }
            guard version == patch.schemaVersion, version == BundleSchema.version else {
                throw PatchRefused(
                    description:
                        "the patch is for schema \(patch.schemaVersion); \(path) has schema \(version) and this reader \(BundleSchema.version)"
                )
            }
            let q = try db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
            let hash = try q.step() ? q.string(0) : ""
            guard hash == patch.fromHash else {
                throw PatchRefused(
                    description: "the patch goes from content \(patch.fromHash.prefix(12))…, but \(path) has content \(hash.prefix(12))…")
            }
        } catch let error as SQLiteError {
            throw PatchRefused(description: "\(path) cannot be read as a bundle: \(error.message)")
        }
    }

    /// The size of the file at `path` (`what` names it in the refusal).
    private static func size(of path: String, _ what: String) throws -> Int {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber else {
            throw PatchRefused(description: "cannot read \(what) \(path)")
        }
        return size.intValue
    }

    private static func applyRows(_ patch: BundlePatch, to path: String, budget: inout PatchBudget) throws {
        let db = try SQLiteDatabase(path: path, writable: true)
        db.limitValueLength(to: BundleLimits.maxValueBytes)
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192; BEGIN")
        var rebuild: Set<String> = []
        for section in patch.sections {
            // Rows for an optional table the base lacks: the table (the city tables: all of
            // them) is made first, as the schema writes it (only a content table: a patch
            // names no other).
            if BundleSchema.optionalTables.contains(section.table), BundleSchema.contentTables.contains(section.table),
                try !db.hasTable(section.table)
            {
                for table in BundleSchema.group(of: section.table) {
                    if try db.hasTable(table) { continue }
                    for sql in BundleSchema.createStatements(of: table) { try db.execute(sql) }
                }
            }
            try PatchSection(section, db: db).apply(budget: &budget)
            rebuild.formUnion(DerivedTables.derived(from: section.table))
        }
        for index in rebuild.sorted() { try DerivedTables.rebuild(index, in: db) }
        let hash = try ContentHash.compute(db)
        guard hash == patch.toHash else {
            throw PatchRefused(
                description:
                    "the patched content hashes to \(hash.prefix(12))…, not the \(patch.toHash.prefix(12))… the patch promises; the bundle or the patch is damaged"
            )
        }
        // The stored hash is the one computed, never a value the patch wrote.
        let stored = try db.prepare("INSERT OR REPLACE INTO metadata (key, value) VALUES ('content_sha256', ?1)")
        stored.bind([hash])
        try stored.run()
        try db.execute("COMMIT")
    }
}
