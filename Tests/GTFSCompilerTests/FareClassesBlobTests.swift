import BundleFormat
import TestKit
import XCTest

/// `FareClassesBlob`: what the compiler packs decodes to what it was, and bytes it cannot
/// have written (cut, flipped, lengthened) decode to fare classes within the bounds asked
/// or throw `PackedReader.Damaged`, never trap.
final class FareClassesBlobTests: XCTestCase {
    /// Seeded fare classes (`TEST_SEED` replays) of every shape: ids of 0 to 40 bytes,
    /// prices up to `maxUnits`, each flag and optional field absent or present, 0 to 6 rules.
    private func randomFares(_ rng: inout SplitMix64) -> [FareClassesBlob.FareClass] {
        func optional(_ limit: UInt64) -> Int? { rng.next() % 3 == 0 ? nil : Int(rng.next() % limit) }
        return (0..<Int(rng.next() % 30)).map { _ in
            let id = String((0..<Int(rng.next() % 41)).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.next() % 26))) })
            let units = rng.next() % 4 == 0 ? FareClassesBlob.maxUnits : Int64(rng.next() % 100_000)
            let rules = (0..<Int(rng.next() % 7)).map { _ in
                FareClassesBlob.Rule(rid: optional(1 << 30), origin: optional(5_000), destination: optional(5_000), contains: optional(9))
            }
            return FareClassesBlob.FareClass(
                fareID: id, units: units, currency: Int(rng.next() % 4) + 1, paymentMethod: Int(rng.next() % 2),
                transfers: optional(3), aid: optional(1 << 20), transferDuration: optional(366 * 86_400), rules: rules)
        }
    }

    func testFareClassesDecodeToWhatWasEncoded() throws {
        let seed = SplitMix64.testSeed(0x5EED_FA4E)
        var rng = SplitMix64(state: seed)
        for round in 0..<300 {
            let fares = randomFares(&rng)
            let bytes = FareClassesBlob.encode(fares)
            XCTAssertEqual(
                try FareClassesBlob.decode(bytes, maxFares: 200_000, maxRules: 2_000_000), fares, "round \(round), TEST_SEED=\(seed)")
        }
        // The bounds asked are kept: one fare or one rule too many is damage.
        let one = FareClassesBlob.FareClass(
            fareID: "a", units: 280, currency: 1, paymentMethod: 1, transfers: nil, aid: nil, transferDuration: 3600,
            rules: [.init(rid: nil, origin: 1, destination: 2, contains: nil)])
        XCTAssertThrowsError(try FareClassesBlob.decode(FareClassesBlob.encode([one, one]), maxFares: 1, maxRules: 10))
        XCTAssertThrowsError(try FareClassesBlob.decode(FareClassesBlob.encode([one, one]), maxFares: 10, maxRules: 1))
        XCTAssertEqual(try FareClassesBlob.decode(FareClassesBlob.encode([one]), maxFares: 1, maxRules: 1), [one])
    }

    func testDamagedBytesAreRefusedNeverTrapped() throws {
        let seed = SplitMix64.testSeed(0x5EED_FA4F)
        var rng = SplitMix64(state: seed)
        var refused = 0
        var decoded = 0
        for _ in 0..<2_000 {
            var bytes = FareClassesBlob.encode(randomFares(&rng))
            switch rng.next() % 4 {
            case 0 where !bytes.isEmpty: bytes.removeLast(Int(rng.next() % UInt64(bytes.count)) + 1)
            case 1 where !bytes.isEmpty: bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(1 << (rng.next() % 8))
            case 2: bytes.insert(contentsOf: (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: 0)
            default: bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
            }
            do {
                let fares = try FareClassesBlob.decode(bytes, maxFares: 100, maxRules: 300)
                XCTAssertLessThanOrEqual(fares.count, 100, "TEST_SEED=\(seed)")
                XCTAssertLessThanOrEqual(fares.map(\.rules.count).reduce(0, +), 300, "TEST_SEED=\(seed)")
                XCTAssertTrue(fares.allSatisfy { $0.units <= FareClassesBlob.maxUnits && $0.paymentMethod <= 1 }, "TEST_SEED=\(seed)")
                decoded += 1
            } catch is PackedReader.Damaged {
                refused += 1
            }
        }
        // Most damage is seen as such (a flipped bit inside an id's text is not).
        XCTAssertGreaterThan(refused, 1_000, "TEST_SEED=\(seed)")
        XCTAssertGreaterThan(decoded, 0, "TEST_SEED=\(seed)")
    }
}
