import BundleFormat
import Foundation
import PatchEngine
import TransitSQLite

/// `gtfs-compile diff OLD.db NEW.db -o PATCH`: the rows that differ between two bundles of
/// the same schema, as a `BundlePatch` from OLD's content hash to NEW's. Each table is read
/// from both files in key order and merged: rows only in OLD are deleted, rows only in NEW
/// are put whole, and rows in both with other values carry only their changed columns;
/// a text or blob that changed in places (a pattern's packed trips after trips were
/// retimed) travels as `ByteEdits` of the old value.
///
/// ```swift
/// let summary = try BundleDiff.write(old: "v1.db", new: "v2.db", to: "v1-v2.patch")
/// ```
public enum BundleDiff {
    /// What a diff wrote.
    public struct Summary: Sendable {
        /// The patch's size in bytes.
        public let bytes: Int
        /// Tables with a change.
        public let tablesChanged: Int
        /// Rows deleted.
        public let rowsDeleted: Int
        /// Rows added.
        public let rowsPut: Int
        /// Rows changed.
        public let rowsUpdated: Int
        /// The content hash of the version the patch applies to.
        public let fromHash: String
        /// The content hash it produces.
        public let toHash: String
    }

    /// Writes the patch from bundle `old` to bundle `new` to `output`; answers its summary.
    public static func write(old: String, new: String, to output: String) throws -> Summary {
        let patch = try make(old: old, new: new)
        let bytes = patch.encoded()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw FatalDiagnostic(.outputFailed, file: output, message: "cannot write the patch: \(error.localizedDescription)")
        }
        var deleted = 0
        var put = 0
        var updated = 0
        for operation in patch.sections.flatMap(\.operations) {
            switch operation {
            case .delete: deleted += 1
            case .put: put += 1
            case .update: updated += 1
            }
        }
        return Summary(
            bytes: bytes.count, tablesChanged: patch.sections.count, rowsDeleted: deleted, rowsPut: put, rowsUpdated: updated,
            fromHash: patch.fromHash, toHash: patch.toHash)
    }

    static func make(old oldPath: String, new newPath: String) throws -> BundlePatch {
        let old = try open(oldPath)
        let new = try open(newPath)
        do {
            var sections: [BundlePatch.Section] = []
            for table in BundleSchema.contentTables {
                // An optional table one bundle lacks reads as empty there.
                let (inOld, inNew) = (try old.hasTable(table), try new.hasTable(table))
                guard inOld || inNew || !BundleSchema.optionalTables.contains(table) else { continue }
                let oldShape = inOld && inNew ? try TableShape(table, in: old) : nil
                guard let shape = try TableShape(table, in: inNew ? new : old), !inOld || !inNew || oldShape == shape else {
                    throw FatalDiagnostic(.unreadableInput, file: oldPath, message: "table \(table) differs in shape between the bundles")
                }
                let operations = try diff(shape, old: inOld ? old : nil, new: inNew ? new : nil)
                if !operations.isEmpty {
                    sections.append(.init(table: table, columns: shape.columns, keyCount: shape.keyCount, operations: operations))
                }
            }
            return BundlePatch(
                schemaVersion: BundleSchema.version, fromHash: try contentHash(old), toHash: try contentHash(new), sections: sections)
        } catch let error as SQLiteError {
            throw FatalDiagnostic(.unreadableInput, file: oldPath, message: "cannot compare the bundles: \(error.message)")
        }
    }

    private static func open(_ path: String) throws -> SQLiteDatabase {
        do {
            let db = try SQLiteDatabase(path: path, writable: false)
            guard try BundleSchema.headerVersion(of: db) == BundleSchema.version else {
                throw FatalDiagnostic(
                    .unreadableInput, file: path, message: "not a transit bundle of schema \(BundleSchema.version); recompile it")
            }
            return db
        } catch let error as SQLiteError {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "cannot open the bundle: \(error.message)")
        }
    }

    private static func contentHash(_ db: SQLiteDatabase) throws -> String {
        let q = try db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
        return try q.step() ? q.string(0) : ""
    }

    /// Both tables in key order, merged (a nil database: the table is missing there, so empty).
    private static func diff(_ shape: TableShape, old: SQLiteDatabase?, new: SQLiteDatabase?) throws -> [BundlePatch.Operation] {
        let a = try old?.prepare(shape.selectAllInKeyOrder)
        let b = try new?.prepare(shape.selectAllInKeyOrder)
        let width = Int32(shape.columns.count)
        func row(_ q: SQLiteStatement?) throws -> [SQLValue]? {
            guard let q else { return nil }
            return try q.step() ? (0..<width).map { q.value($0) } : nil
        }
        var operations: [BundlePatch.Operation] = []
        var left = try row(a)
        var right = try row(b)
        while left != nil || right != nil {
            let leftKey = left.map { Array($0.prefix(shape.keyCount)) }
            let rightKey = right.map { Array($0.prefix(shape.keyCount)) }
            if let l = left, rightKey == nil || SQLValue.precedes(leftKey!, rightKey!) {
                operations.append(.delete(key: Array(l.prefix(shape.keyCount))))
                left = try row(a)
            } else if let r = right, leftKey == nil || SQLValue.precedes(rightKey!, leftKey!) {
                operations.append(.put(row: r))
                right = try row(b)
            } else if let l = left, let r = right {
                let changes = zip(l, r).enumerated().compactMap { column, pair in
                    pair.0 == pair.1 ? nil : (column: column, change: change(from: pair.0, to: pair.1))
                }
                if !changes.isEmpty { operations.append(.update(key: leftKey!, changes: changes)) }
                left = try row(a)
                right = try row(b)
            }
        }
        return operations
    }

    /// A text or blob as edits of the old one when they are smaller; anything else whole.
    private static func change(from old: SQLValue, to new: SQLValue) -> BundlePatch.Change {
        switch (old, new) {
        case (.text(let x), .text(let y)), (.blob(let x), .blob(let y)):
            let edits = ByteEdits.between(x, y)
            return edits.size < y.count ? .edits(edits) : .value(new)
        default:
            return .value(new)
        }
    }
}
