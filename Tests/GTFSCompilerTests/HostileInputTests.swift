import Foundation
import TestKit
import TestSupport
import XCTest

@testable import GTFSCompiler

/// Limits that hold on hostile archives: each ends in a diagnostic within bounded time.
final class HostileInputTests: XCTestCase {
    /// A stored (uncompressed) zip of `files`, written by hand.
    static func storedZip(_ files: [(String, [UInt8])]) -> Data {
        var out = [UInt8]()
        var central = [UInt8]()
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        for (name, data) in files {
            let offset = out.count
            let crc = Int(crc32OfBytes(data))
            let nameBytes = Array(name.utf8)
            out +=
                le(0x0403_4B50, 4) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.count, 4) + le(data.count, 4)
                + le(nameBytes.count, 2) + le(0, 2) + nameBytes + data
            central +=
                le(0x0201_4B50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.count, 4)
                + le(data.count, 4) + le(nameBytes.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(offset, 4)
                + nameBytes
        }
        let start = out.count
        out +=
            central + le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(files.count, 2) + le(files.count, 2)
            + le(central.count, 4) + le(start, 4) + le(0, 2)
        return Data(out)
    }

    static func crc32OfBytes(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func compile(_ zip: Data) throws -> (DiagnosticLog, Bool) {
        let (log, output) = try compileToBundle(zip)
        return (log, output != nil)
    }

    /// Compiles `zip` (or, with `zip` nil, `folder`); the bundle's path when it was written.
    private func compileToBundle(_ zip: Data?, folder: URL? = nil) throws -> (DiagnosticLog, String?) {
        let directory = TemporaryFolders.make()
        let path = directory.appendingPathComponent("feed.zip")
        if let zip { try zip.write(to: path) }
        let log = DiagnosticLog()
        let output = directory.appendingPathComponent("h.db").path
        let ok =
            (try? Compiler.compile(
                CompileRequest(feeds: [.init(name: "h", path: zip == nil ? folder?.path ?? "" : path.path)], outputPath: output),
                log: log)) != nil
        return (log, ok ? output : nil)
    }

    private var minimalFiles: [(String, [UInt8])] {
        TestSupport.minimalFeed.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8)) }
    }

    func testArchiveWithTooManyEntriesIsRefused() throws {
        let junk = (0..<12_000).map { ("junk/\($0).txt", [UInt8]()) }
        let (log, ok) = try compile(Self.storedZip(minimalFiles + junk))
        XCTAssertFalse(ok)
        XCTAssertTrue(log.diagnostics.contains { $0.code == .unreadableArchive && $0.message.contains("10000") }, log.summaryText())
    }

    func testThousandsOfUnknownEntriesAreReportedButBounded() throws {
        let junk = (0..<3_000).map { ("extra-\($0).txt", [UInt8]("x\n".utf8)) }
        let (log, ok) = try compile(Self.storedZip(minimalFiles + junk))
        XCTAssertTrue(ok)
        XCTAssertEqual(log.countsByCode[.unknownFile], 3_000)
        XCTAssertEqual(log.diagnostics.filter { $0.code == .unknownFile }.count, log.record.keepPerCode, "kept diagnostics are capped")
    }

    /// The same files from this test's hand-written stored zip and from a folder make the
    /// same trips, stops and times.
    func testHandWrittenZipReaderAgreesWithTheCompiler() throws {
        let (log, zipped) = try compileToBundle(Self.storedZip(minimalFiles))
        let folder = TemporaryFolders.make()
        for (name, bytes) in minimalFiles { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
        let (folderLog, plain) = try compileToBundle(nil, folder: folder)
        let fromZip = try BundleDump(path: try XCTUnwrap(zipped, log.summaryText())).trips
        let fromFolder = try BundleDump(path: try XCTUnwrap(plain, folderLog.summaryText())).trips
        XCTAssertFalse(fromZip.isEmpty)
        XCTAssertEqual(fromZip, fromFolder)
    }
}
