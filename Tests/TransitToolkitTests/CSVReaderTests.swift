import TestKit
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
}
