import Foundation

/// A small deterministic random generator (SplitMix64), so a failing case can be replayed
/// from its seed.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }

    /// The seed of a test's random draws: `TEST_SEED` from the environment (to replay a
    /// failure, whose message prints its seed), else the test's own fixed `fallback`.
    public static func testSeed(_ fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["TEST_SEED"].flatMap { UInt64($0) } ?? fallback
    }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
