import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// `ForwardRows` steps one statement forward over keys that lie close and seeks past gaps;
/// whatever the order and the gaps, each key must give the row a point lookup gives (the
/// independent reading), and a key the table lacks nothing.
final class ForwardRowsTests: XCTestCase {
    /// Seeded runs of keys: ascending with small and large gaps, repeats, keys past the
    /// last row and below the first, and runs going back.
    private func keySequences(upTo last: Int, stride: Int, _ random: inout SplitMix64) -> [[Int]] {
        var sequences: [[Int]] = [Array(Swift.stride(from: 0, through: last + 3 * stride, by: stride))]
        for _ in 0..<40 {
            var keys: [Int] = []
            var key = Int.random(in: -2 * stride...stride, using: &random)
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                keys.append(key)
                switch Int.random(in: 0..<10, using: &random) {
                case 0: key -= Int.random(in: 1...(10 * stride), using: &random)
                case 1: break
                case 2, 3: key += Int.random(in: 5...(40 * stride), using: &random)
                default: key += Int.random(in: 1...(5 * stride), using: &random)
                }
            }
            sequences.append(keys)
        }
        return sequences
    }

    private func check(
        _ rows: () throws -> ForwardRows, point sql: String, blobs: [Int32], upTo last: Int, stride: Int, seed: UInt64, db: SQLiteDatabase
    ) throws {
        var random = SplitMix64(state: seed)
        let lookup = try db.prepare(sql)
        for keys in keySequences(upTo: last, stride: stride, &random) {
            var forward = try rows()
            defer { forward.finish() }
            for key in keys {
                lookup.reset()
                lookup.bind([key])
                let expected = try lookup.step() ? blobs.map { lookup.blob($0 - 1) } : nil
                let found = try forward.row(key).map { row in blobs.map { row.blob($0) } }
                XCTAssertEqual(found, expected, "seed \(seed), key \(key) in \(keys)")
            }
        }
    }

    func testEveryKeyGivesThePointLookupsRowWhateverTheOrder() throws {
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let seed = SplitMix64.testSeed(44_2029)
        let lastPid = try XCTUnwrap(db.scalarInt("SELECT max(pid) FROM patterns"))
        XCTAssertGreaterThan(lastPid, 5, "the sample has patterns enough to step over")
        try check(
            { try ForwardRows.patterns(db) }, point: "SELECT stops, trips FROM patterns WHERE pid = ?1", blobs: [1, 2], upTo: lastPid,
            stride: 1, seed: seed, db: db)
        let lastBlock = try XCTUnwrap(db.scalarInt("SELECT max(first_tid) FROM trip_blocks"))
        try check(
            { try ForwardRows.tripBlocks(db) }, point: "SELECT entries FROM trip_blocks WHERE first_tid = ?1", blobs: [1],
            upTo: lastBlock, stride: 64, seed: seed, db: db)
    }
}
