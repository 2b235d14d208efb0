import TestKit
import TestSupport
import XCTest

@testable import GTFSCompiler

final class CSVReaderTests: XCTestCase {
    /// Reads every record as arrays of strings, through a stream of `step`-byte chunks.
    private func records(_ text: String, step: Int = 1) throws -> [[String]] {
        let reader = CSVReader(stream: DribbleStream(text, step: step), fileName: "t.txt")
        var out: [[String]] = []
        while try reader.nextRecord() { out.append((0..<reader.fieldCount).map(reader.string)) }
        return out
    }

    private func records(bytes: [UInt8]) throws -> [[String]] {
        let reader = CSVReader(stream: DribbleStream(bytes: bytes, step: 7), fileName: "t.txt")
        var out: [[String]] = []
        while try reader.nextRecord() { out.append((0..<reader.fieldCount).map(reader.string)) }
        return out
    }

    func testQuotedFieldsWithCommasDoubledQuotesAndLineBreaks() throws {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nplain,,end\n"
        for step in [1, 2, 3, 5, 1000] {
            XCTAssertEqual(
                try records(text, step: step), [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", "end"]], "step \(step)"
            )
        }
    }

    func testLineEndingsBOMBlankLinesAndMissingFinalNewline() throws {
        let text = "\u{FEFF}id,name\r\n1,One\r2,Two\n\n\r\n3,Three"
        XCTAssertEqual(try records(text, step: 1), [["id", "name"], ["1", "One"], ["2", "Two"], ["3", "Three"]])
        XCTAssertEqual(try records(text, step: 4096), [["id", "name"], ["1", "One"], ["2", "Two"], ["3", "Three"]])
    }

    func testLineNumbersCountPhysicalLinesIncludingQuotedBreaks() throws {
        let reader = CSVReader(stream: DribbleStream("h\n\"a\nb\"\nc\n\nd\n", step: 2), fileName: "t.txt")
        var lines: [Int] = []
        while try reader.nextRecord() { lines.append(reader.line) }
        XCTAssertEqual(lines, [1, 2, 4, 6])
    }

    func testFieldsAreTrimmedOfSpacesUnlessQuoted() throws {
        XCTAssertEqual(try records("agency_id, agency_name ,\" padded \"\n"), [["agency_id", "agency_name", " padded "]])
    }

    func testTrailingEmptyFieldIsKept() throws {
        XCTAssertEqual(try records("a,b,\n1,2,"), [["a", "b", ""], ["1", "2", ""]])
    }

    func testUTF16IsRefused() {
        XCTAssertThrowsError(try records(bytes: [0xFE, 0xFF, 0, 0x61])) { error in
            XCTAssertEqual((error as? FatalDiagnostic)?.code, .notUTF8)
        }
    }

    func testUTF16WithoutByteOrderMarkIsRefused() {
        let utf16 = Array("stop_id\n".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        XCTAssertThrowsError(try records(bytes: utf16)) { error in
            XCTAssertEqual((error as? FatalDiagnostic)?.code, .notUTF8)
        }
    }

    func testNULBytesInsideFieldsAreDroppedAndCounted() throws {
        let bytes = Array("a,b\n1,Ca".utf8) + [0] + Array("fe".utf8) + [0] + Array("\n3,4\n".utf8)
        for step in [1, 3, 4096] {
            let reader = CSVReader(stream: DribbleStream(bytes: bytes, step: step), fileName: "t.txt")
            var rows: [([String], Int)] = []
            while try reader.nextRecord() { rows.append(((0..<reader.fieldCount).map(reader.string), reader.droppedNULs)) }
            XCTAssertEqual(rows.map(\.0), [["a", "b"], ["1", "Cafe"], ["3", "4"]], "step \(step)")
            XCTAssertEqual(rows.map(\.1), [0, 2, 0], "step \(step)")
        }
    }

    func testInvalidUTF8IsRefusedWithItsLine() {
        XCTAssertThrowsError(try records(bytes: Array("a\nok\n".utf8) + [0xC3, 0x28, 0x0A])) { error in
            let diagnostic = (error as? FatalDiagnostic)?.diagnostic
            XCTAssertEqual(diagnostic?.code, .notUTF8)
            XCTAssertEqual(diagnostic?.line, 3)
        }
    }

    func testRecordOverOneMegabyteIsRefused() {
        let long = "a\n" + String(repeating: "x", count: CSVReader.maxRecordBytes + 10) + "\n"
        let reader = CSVReader(stream: DribbleStream(long, step: 65536), fileName: "t.txt")
        XCTAssertThrowsError(try { while try reader.nextRecord() {} }()) { error in
            XCTAssertEqual((error as? FatalDiagnostic)?.code, .lineTooLong)
        }
    }

    /// Found by `make fuzz` (csv target, a timeout): 22 KB fed one byte per read, where the
    /// second record is a quoted field running 22 KB (with an invalid UTF-8 byte at offset
    /// 19,966). Each read used to re-parse the record from its start, so the time grew with
    /// the square of the record's size.
    func testFuzzFindingALongRecordReadOneByteAtATimeEnds() throws {
        let url = TestPaths.repository.appendingPathComponent("Tests/Fixtures/fuzz/csv-timeout-one-byte-reads.bin")
        let bytes = Array(try Data(contentsOf: url).dropFirst())  // the harness's first byte picks the read size (0: one byte)
        let reader = CSVReader(stream: DribbleStream(bytes: bytes, step: 1), fileName: "t.txt")
        var records = 0
        XCTAssertThrowsError(try { while try reader.nextRecord() { records += 1 } }()) { error in
            XCTAssertEqual((error as? FatalDiagnostic)?.code, .notUTF8)
            XCTAssertEqual((error as? FatalDiagnostic)?.diagnostic.line, 2)
        }
        XCTAssertEqual(records, 1, "the header, then the long record")
    }

    /// The same, large enough that re-parsing per byte would never finish (600 KB squared).
    func testALongRecordFromOneByteReadsIsReadInLinearTime() throws {
        let text = "h\n\"" + String(repeating: "x", count: 600_000) + "\"\nend\n"
        XCTAssertEqual(try records(text, step: 1).map { $0.first?.count ?? 0 }, [1, 600_000, 3])
    }

    func testUnclosedQuoteAtEndOfFileIsABrokenCSVError() {
        XCTAssertThrowsError(try records("a\nok\n\"never closed\n")) { error in
            let fatal = error as? FatalDiagnostic
            XCTAssertEqual(fatal?.code, .brokenCSV)
            XCTAssertEqual(fatal?.diagnostic.severity, .error)
            XCTAssertEqual(fatal?.diagnostic.line, 3)
        }
    }

    /// Random records (seeded; `TEST_SEED` replays) written from known fields and read
    /// back through several read sizes: quoted fields with commas, doubled quotes and line
    /// breaks, NULs, multi-byte UTF-8, CR LF, blank lines, and records long enough for the
    /// eight-byte scan. The expected fields are the generated ones, not a second parser.
    func testRandomRecordsReadBackAsWritten() throws {
        let seed = SplitMix64.testSeed(20_261_125)
        var random = SplitMix64(state: seed)
        let plain: [[UInt8]] = ["a", "Z", "7", ":", "_", "-", ".", " ", "é", "駅", "~", "\u{0}", "'"].map { Array($0.utf8) }
        var bytes: [UInt8] = []
        var expected: [([String], Int)] = []
        for _ in 0..<400 {
            if Int.random(in: 0..<20, using: &random) == 0 { bytes += Array("\n".utf8) }  // a blank line, skipped
            var fields: [String] = []
            var nuls = 0
            for index in 0..<Int.random(in: 1...12, using: &random) {
                if index > 0 { bytes.append(0x2C) }
                var raw: [UInt8] = []
                let quoted = Int.random(in: 0..<4, using: &random) == 0
                let inner: [[UInt8]] = quoted ? plain + [[0x2C], [0x0A], [0x22, 0x22]] : plain
                for _ in 0..<Int.random(in: 0...(Int.random(in: 0..<5, using: &random) == 0 ? 40 : 8), using: &random) {
                    raw += inner.randomElement(using: &random)!
                }
                // An unquoted field is trimmed of its outer spaces; a quoted one keeps them.
                var text = raw.filter { $0 != 0 }
                if quoted {
                    bytes += [0x22] + raw + [0x22]
                    text = Array(String(decoding: text, as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"").utf8)
                } else {
                    bytes += raw
                    while text.first == 0x20 { text.removeFirst() }
                    while text.last == 0x20 { text.removeLast() }
                }
                nuls += raw.filter { $0 == 0 }.count
                fields.append(String(decoding: text, as: UTF8.self))
            }
            // A record of one empty unquoted field is a blank line.
            if fields == [""] && bytes.last != 0x22 {
                bytes += Array("x".utf8)
                fields = ["x"]
            }
            bytes += Int.random(in: 0..<3, using: &random) == 0 ? [0x0D, 0x0A] : [0x0A]
            expected.append((fields, nuls))
        }
        for step in [1, 5, 4096, 1 << 20] {
            let reader = CSVReader(stream: DribbleStream(bytes: bytes, step: step), fileName: "t.txt")
            var index = 0
            while try reader.nextRecord() {
                guard index < expected.count else { return XCTFail("seed \(seed), step \(step): more records than written") }
                let fields = (0..<reader.fieldCount).map(reader.string)
                XCTAssertEqual(fields, expected[index].0, "seed \(seed), step \(step), record \(index)")
                XCTAssertEqual(reader.droppedNULs, expected[index].1, "seed \(seed), step \(step), record \(index): NULs")
                index += 1
            }
            XCTAssertEqual(index, expected.count, "seed \(seed), step \(step)")
        }
    }

    /// Bad UTF-8 and NULs deep inside long records, where the eight-byte scan reads them.
    func testInvalidUTF8AndNULsInsideLongRecords() throws {
        let long = String(repeating: "abcdefgh", count: 8)
        // Each record is followed by another, so its end is found by the eight-byte scan.
        let bad = Array("h1,h2\n\(long),\(long)".utf8) + [0xE9] + Array("\(long)\n\(long),y\n".utf8)
        XCTAssertThrowsError(try records(bytes: bad)) { error in
            XCTAssertEqual((error as? FatalDiagnostic)?.code, .notUTF8)
            XCTAssertEqual((error as? FatalDiagnostic)?.diagnostic.line, 2)
        }
        let withNUL = Array("h1,h2\n\(long),\(long)".utf8) + [0] + Array("\(long)\nx,\(long)\n".utf8)
        let reader = CSVReader(stream: DribbleStream(bytes: withNUL, step: 1 << 20), fileName: "t.txt")
        var rows: [([String], Int)] = []
        while try reader.nextRecord() { rows.append(((0..<reader.fieldCount).map(reader.string), reader.droppedNULs)) }
        XCTAssertEqual(rows.map(\.0), [["h1", "h2"], [long, long + long], ["x", long]])
        XCTAssertEqual(rows.map(\.1), [0, 1, 0])
    }
}
