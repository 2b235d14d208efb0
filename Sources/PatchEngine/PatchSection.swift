import TransitSQLite

/// Applies one table's operations of a patch, refusing any that does not fit the bundle:
/// an unknown table or columns, a delete or update of a row that is not there, edits
/// longer than the value it edits.
struct PatchSection {
    private let section: BundlePatch.Section
    private let shape: TableShape
    private let db: SQLiteDatabase

    init(_ section: BundlePatch.Section, db: SQLiteDatabase) throws {
        guard let shape = try TableShape(section.table, in: db), shape.columns == section.columns, shape.keyCount == section.keyCount
        else { throw PatchRefused(description: "the patch changes table \(section.table) in a shape this bundle does not have") }
        self.section = section
        self.shape = shape
        self.db = db
    }

    /// Applies the operations, each charged to `budget` (`PatchBudget`) before it is done.
    func apply(budget: inout PatchBudget) throws {
        try budget.charge(PatchBudget.perSection)
        let table = TableShape.quoted(shape.table)
        let names = shape.columns.map(TableShape.quoted).joined(separator: ", ")
        let delete = try db.prepare("DELETE FROM \(table) \(shape.whereKey)")
        let put = try db.prepare(
            "INSERT OR REPLACE INTO \(table) (\(names)) VALUES (\((1...shape.columns.count).map { "?\($0)" }.joined(separator: ", ")))")
        let read = try db.prepare("SELECT \(names) FROM \(table) \(shape.whereKey)")
        for operation in section.operations {
            switch operation {
            case .delete(let key):
                try budget.charge(PatchBudget.cost(of: key))
                delete.bind(key)
                try delete.run()
                guard db.changes == 1 else { throw missing(key) }
            case .put(let row):
                try budget.charge(PatchBudget.cost(of: row))
                put.bind(row)
                try put.run()
            case .update(let key, let changes):
                read.bind(key)
                guard try read.step() else { throw missing(key) }
                // The row read and written again: its bytes, before they are copied.
                try budget.charge(2 * (0..<Int32(shape.columns.count)).reduce(PatchBudget.perOperation) { $0 + read.byteCount($1) })
                var row = (0..<Int32(shape.columns.count)).map { read.value($0) }
                read.reset()
                for (column, change) in changes { row[column] = try Self.changed(row[column], by: change, table: shape.table) }
                put.bind(row)
                try put.run()
            }
        }
    }

    private func missing(_ key: [SQLValue]) -> PatchRefused {
        PatchRefused(description: "the patch changes a row of \(shape.table) that the bundle does not have (key \(key))")
    }

    private static func changed(_ old: SQLValue, by change: BundlePatch.Change, table: String) throws -> SQLValue {
        switch change {
        case .value(let value): return value
        case .edits(let edits):
            switch old {
            case .text(let bytes): return .text(try edits.applied(to: bytes))
            case .blob(let bytes): return .blob(try edits.applied(to: bytes))
            default: throw PatchRefused(description: "the patch edits a value of \(table) that is not text or a blob")
            }
        }
    }
}
