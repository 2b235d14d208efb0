import TestKit
import XCTest

@testable import GTFSCompiler

/// `StopSequenceGuess` against the id table it spares: over seeded trips (most repeating
/// the previous trip's stops, some with a stop changed, added or left out), every guess is
/// the id the table gives for the row's stop_id, and most rows are guessed.
final class StopSequenceGuessTests: XCTestCase {
    func testAGuessIsAlwaysTheTablesIdAndMostRowsAreGuessed() {
        let seed = SplitMix64.testSeed(44_2030)
        var random = SplitMix64(state: seed)
        var table = ByteInterner()
        let names = (0..<300).map { "S\($0)-" + String(repeating: "x", count: $0 % 70) }
        for name in names { _ = table.intern(name) }
        var guess = StopSequenceGuess()
        var pattern = (0..<30).map { _ in names.randomElement(using: &random)! }
        var (rows, guessed) = (0, 0)
        for _ in 0..<2000 {
            guess.startTrip()
            switch Int.random(in: 0..<6, using: &random) {
            case 0: pattern[Int.random(in: 0..<pattern.count, using: &random)] = names.randomElement(using: &random)!
            case 1: pattern.insert(names.randomElement(using: &random)!, at: Int.random(in: 0...pattern.count, using: &random))
            case 2 where pattern.count > 2: pattern.remove(at: Int.random(in: 0..<pattern.count, using: &random))
            default: break
            }
            for name in pattern {
                var text = name
                text.withUTF8 { key in
                    let expected = table.find(key)!
                    if let id = guess.stop(matching: key) {
                        XCTAssertEqual(id, expected, "seed \(seed): \(name)")
                        guessed += 1
                    }
                    guess.record(key, id: expected)
                    rows += 1
                }
            }
        }
        XCTAssertGreaterThan(Double(guessed) / Double(rows), 0.5, "seed \(seed): \(guessed) of \(rows) rows guessed")
    }

    func testLongTripsAndLongIdsAreLookedUpNotKept() {
        var guess = StopSequenceGuess()
        let long = Array(repeating: UInt8(ascii: "a"), count: StopSequenceGuess.keyBytes + 1)
        long.withUnsafeBufferPointer { guess.record($0, id: 7) }
        guess.startTrip()
        XCTAssertNil(long.withUnsafeBufferPointer { guess.stop(matching: $0) }, "an id longer than kept is not guessed")
        guess = StopSequenceGuess()
        let key = Array("P".utf8)
        for _ in 0..<(StopSequenceGuess.positions + 5) { key.withUnsafeBufferPointer { guess.record($0, id: 3) } }
        guess.startTrip()
        var found = 0
        for _ in 0..<(StopSequenceGuess.positions + 5) {
            key.withUnsafeBufferPointer { k in
                if guess.stop(matching: k) != nil { found += 1 }
                guess.record(k, id: 3)
            }
        }
        XCTAssertEqual(found, StopSequenceGuess.positions, "positions past the limit are not kept")
    }
}
