import Foundation
import TestKit
import TestSupport
import TransitJSON
import TransitRuntime
import XCTest

/// `CompactJSONEncoder` (what the command line prints with) against Foundation's
/// `JSONEncoder` with sorted keys, the independent reading: the same JSON values for the
/// library's types, and the same refusals.
final class CompactJSONEncoderTests: XCTestCase {
    /// Both encodings parsed back: equal as JSON values (number spelling may differ).
    private func assertSameJSON<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        foundation.dateEncodingStrategy = .iso8601
        let compact = try CompactJSONEncoder().encode(value)
        let a = try JSONSerialization.jsonObject(with: Data(compact), options: [.fragmentsAllowed])
        let b = try JSONSerialization.jsonObject(with: try foundation.encode(value), options: [.fragmentsAllowed])
        XCTAssertTrue(Self.same(a, b), "\(String(decoding: compact, as: UTF8.self))", file: file, line: line)
    }

    /// Two parsed JSON values are the same: objects by keys, arrays in order, numbers by value.
    private static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (let x as String, let y as String): return x == y
        case (let x as NSNumber, let y as NSNumber): return x == y
        case (is NSNull, is NSNull): return true
        default: return false
        }
    }

    func testTheLibrarysValuesEncodeAsFoundationEncodesThem() throws {
        let bundle = TestSupport.sampleBundle
        let at = try QueryTime.parse("2026-03-30T08:00")
        let board = try bundle.departures(from: "CENTRAL", at: at, within: 7200, limit: 50)
        XCTAssertFalse(board.isEmpty)
        try assertSameJSON(board)
        try assertSameJSON(try bundle.stops(matching: "bellevue"))
        try assertSameJSON(try bundle.trip("S2_FREQ", on: ServiceDate("2026-03-30")!))
        try assertSameJSON(try bundle.shapes(route: "T4"))
        try assertSameJSON(try bundle.route("T4"))
        try assertSameJSON(try bundle.info())
        let journeys = try bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at)
        XCTAssertFalse(journeys.isEmpty)
        try assertSameJSON(journeys)
    }

    func testStringsNumbersAndShapesOfValues() throws {
        struct Sample: Encodable {
            var text = "quote \" backslash \\ newline \n tab \t bell \u{7} é 東"
            var number = 0.1
            var big = 1e300
            var whole = 3.0
            var negative = -42
            var missing: String? = nil
            var null: String?? = .some(nil)
            var list: [Int] = []
            var nested: [String: [Double]] = ["b": [1.5], "a": []]
        }
        try assertSameJSON(Sample())
        let bytes = try CompactJSONEncoder().encode(Sample())
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("missing"), text)
        XCTAssertTrue(text.contains("\"nested\":{\"a\":[],\"b\":[1.5]}"), text)
        XCTAssertTrue(text.contains("\\u0007"), text)
        XCTAssertThrowsError(try CompactJSONEncoder().encode([Double.nan]))
        XCTAssertThrowsError(try CompactJSONEncoder().encode(["x": Double.infinity]))
        XCTAssertEqual(String(decoding: try CompactJSONEncoder().encode([Int64.min, 0]), as: UTF8.self), "[-9223372036854775808,0]")
        XCTAssertEqual(
            String(decoding: try CompactJSONEncoder().encode(Date(timeIntervalSince1970: 0)), as: UTF8.self), "\"1970-01-01T00:00:00Z\"")
    }
}
