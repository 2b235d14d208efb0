import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import TransitSQLite

extension TestSupport {
    /// `files` (file name -> text) written as a feed "f" and compiled; the bundle's path.
    package static func compileFeed(_ files: [String: String]) throws -> String {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("feed.db").path
        _ = try Compiler.compile(CompileRequest(feeds: [.init(name: "f", path: writeFeed(files, in: feed))], outputPath: output))
        return output
    }

    /// The rows `sql` reads from the bundle at `path`, each as its columns joined by spaces
    /// ("-" for NULL).
    package static func rows(_ path: String, _ sql: String) throws -> [String] {
        let db = try SQLiteDatabase(path: path, writable: false)
        let statement = try db.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<Int32(statement.columnCount)).map { statement.isNull($0) ? "-" : statement.string($0) }.joined(separator: " "))
        }
        return rows
    }

    /// "line field code" of each diagnostic of `file` in `log`.
    package static func problems(_ log: DiagnosticLog, _ file: String) -> [String] {
        log.diagnostics.filter { $0.file == file }.map { "\($0.line ?? 0) \($0.field ?? "-") \($0.code.rawValue)" }
    }
}
