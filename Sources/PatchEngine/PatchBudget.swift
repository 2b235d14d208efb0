import TransitSQLite

/// How much work a patch may make its applier do, fixed before any is done: a patch
/// larger than `maxPatchBytes(base:)` is refused unread, and applying it may rewrite at
/// most `bytes` bytes of rows (each operation costs the bytes of the rows it reads and
/// writes, plus a little), so a patch that is small on the wire cannot rewrite one large
/// row millions of times. A patch past its budget is refused: the store then fetches the
/// whole bundle, which is never more work than that.
///
/// ```swift
/// var budget = PatchBudget(baseBytes: 40_000_000, patchBytes: 120_000)
/// try budget.charge(4_096)
/// ```
package struct PatchBudget {
    /// What one operation costs besides its bytes (a statement step, a key lookup).
    static let perOperation = 64
    /// What one section costs besides its operations (its statements prepared).
    static let perSection = 4_096

    package private(set) var bytes: Int

    /// The budget for a patch of `patchBytes` applied to a bundle of `baseBytes`: four
    /// times both, and 16 MB for a small bundle's index rebuild.
    package init(baseBytes: Int, patchBytes: Int) {
        bytes = 4 * (baseBytes + patchBytes) + (16 << 20)
    }

    /// The largest patch accepted for a bundle of `base` bytes: twice the bundle and a
    /// megabyte (a larger patch costs more than the whole file).
    package static func maxPatchBytes(base: Int) -> Int { 2 * base + (1 << 20) }

    /// Takes `cost` from the budget, refusing the patch when it runs out.
    package mutating func charge(_ cost: Int) throws {
        bytes -= cost
        guard bytes >= 0 else {
            throw PatchRefused(description: "the patch rewrites more than a patch of its size may (a damaged or crafted patch)")
        }
    }

    /// What a row of values costs: its bytes and one operation.
    static func cost(of row: [SQLValue]) -> Int {
        row.reduce(perOperation) { total, value in
            switch value {
            case .text(let bytes), .blob(let bytes): return total + bytes.count
            default: return total + 8
            }
        }
    }
}
