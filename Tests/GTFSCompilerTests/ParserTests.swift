import BundleFormat
import FileIntegrity
import TestKit
import TestSupport
import XCTest

@testable import GTFSCompiler

final class ParserTests: XCTestCase {
    private func time(_ text: String) -> Int32? {
        var copy = text
        return copy.withUTF8 { FieldParser.time($0) }
    }

    private func date(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { FieldParser.date($0) }
    }

    func testTimesPastMidnightAndSingleDigitHours() {
        XCTAssertEqual(time("08:00:00"), 28_800)
        XCTAssertEqual(time("5:07:09"), 5 * 3600 + 7 * 60 + 9)
        XCTAssertEqual(time("25:10:00"), 90_600)
        XCTAssertEqual(time("48:00:01"), 172_801)
        XCTAssertEqual(time("123:00:00"), 442_800)
    }

    func testMalformedTimesAreRejected() {
        for bad in ["", "8:00", "25:7:00", "24:60:00", "10:00:60", "aa:bb:cc", "10-00-00", "1000:00:00"] {
            XCTAssertNil(time(bad), bad)
        }
    }

    func testDates() {
        XCTAssertEqual(date("20260329"), 20_260_329)
        XCTAssertEqual(date("20240229"), 20_240_229)
        for bad in ["20230229", "2026-03-29", "2007.01.01", "20261301", "2026032", ""] { XCTAssertNil(date(bad), bad) }
    }

    func testCivilDateWeekdaysAndRoundTrip() {
        let day = CivilDate(yyyymmdd: 20_260_329)!
        XCTAssertEqual(day.weekdayIndex, 6, "2026-03-29 is a Sunday")
        XCTAssertEqual(CivilDate(yyyymmdd: 20_260_330)!.weekdayIndex, 0, "2026-03-30 is a Monday")
        XCTAssertEqual(CivilDate(iso: "1970-01-01")?.dayNumber, 0)
        XCTAssertEqual(day.adding(days: 3).iso, "2026-04-01")
        XCTAssertEqual(CivilDate(dayNumber: day.dayNumber).yyyymmdd, 20_260_329)
    }

    func testSHA256KnownVectors() {
        func digest(_ text: String) -> String {
            var hasher = SHA256()
            Array(text.utf8).withUnsafeBytes { hasher.update($0) }
            return hasher.finalizeHex()
        }
        XCTAssertEqual(digest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(digest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(digest(String(repeating: "a", count: 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testByteInternerIdsAndByteOrder() {
        var interner = ByteInterner(capacity: 2)
        let words = ["b", "a", "ab", "", "b", "é", "aa"]
        let ids = words.map { interner.intern($0) }
        XCTAssertEqual(ids, [0, 1, 2, 3, 0, 4, 5])
        XCTAssertEqual(interner.idsInByteOrder().map(interner.string), ["", "a", "aa", "ab", "b", "é"])
        XCTAssertEqual(interner.find("ab"), 2)
        XCTAssertNil(interner.find("zz"))
    }

    /// Keys that share their first sixteen bytes (the part a slot holds) and differ after,
    /// keys of every length around sixteen, a reserve in the middle: ids as a dictionary
    /// gives them (seeded; `TEST_SEED` replays).
    func testByteInternerAgainstADictionary() {
        let seed = SplitMix64.testSeed(7_919)
        var random = SplitMix64(state: seed)
        var interner = ByteInterner(capacity: 4)
        var reference: [String: Int32] = [:]
        let prefix = "0123456789abcdef"
        for step in 0..<20_000 {
            if step == 5_000 { interner.reserve(30_000) }
            let length = Int.random(in: 0...24, using: &random)
            let shared = Int.random(in: 0..<3, using: &random) == 0
            var key = shared ? String(prefix.prefix(min(length, 16))) : ""
            while key.utf8.count < length { key.append("xyz~é".randomElement(using: &random)!) }
            if Bool.random(using: &random) {
                XCTAssertEqual(interner.find(key), reference[key], "seed \(seed), step \(step), find \(key)")
            } else {
                let expected = reference[key] ?? Int32(reference.count)
                reference[key] = expected
                XCTAssertEqual(interner.intern(key), expected, "seed \(seed), step \(step), intern \(key)")
            }
        }
        XCTAssertEqual(interner.count, reference.count)
        for (key, id) in reference { XCTAssertEqual(interner.string(id), key, "seed \(seed)") }
    }

    func testFeedArgumentNames() {
        XCTAssertEqual(CompileRequest.Feed(argument: "metro=/data/x.zip").name, "metro")
        XCTAssertEqual(CompileRequest.Feed(argument: "/data/cts-strasbourg.zip").name, "cts-strasbourg")
        XCTAssertEqual(CompileRequest.Feed(argument: "./a=b/feed").name, "feed")
    }
}
