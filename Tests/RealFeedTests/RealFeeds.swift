import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import XCTest

/// The real feeds in ../shared/feeds, each compiled once per test run (release mode).
/// Tests that use them skip when ../shared is absent (a user's clone has none; CI has it).
enum RealFeeds {
    static let folder = TestPaths.shared.appendingPathComponent("feeds")
    static let output = TemporaryFolders.make()

    static func requireShared() throws {
        _ = try TestPaths.requireShared("feeds")
    }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".zip") }.map {
            String($0.dropLast(4))
        }.sorted()
    }

    private static let compiled = Locked<[String: (TransitBundle, CompileSummary, DiagnosticLog)]>([:])

    /// The feed's bundle, compiled on first use.
    static func bundle(_ name: String) throws -> (bundle: TransitBundle, summary: CompileSummary, log: DiagnosticLog) {
        try compiled.withLock { compiled in
            if let done = compiled[name] { return done }
            let path = output.appendingPathComponent(name + ".db").path
            let log = DiagnosticLog()
            let summary = try Compiler.compile(
                CompileRequest(
                    feeds: [.init(name: name, path: folder.appendingPathComponent(name + ".zip").path)],
                    outputPath: path), log: log)
            let result = (try TransitBundle(path: path), summary, log)
            compiled[name] = result
            return result
        }
    }

    /// SOURCES.md's table: feed -> (stop_times, trips).
    static func sources() throws -> [String: (stopTimes: Int, trips: Int)] {
        let text = try String(contentsOf: folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)
        var result: [String: (Int, Int)] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, let st = Int(cells[1].replacingOccurrences(of: ",", with: "")),
                let trips = Int(cells[2].replacingOccurrences(of: ",", with: ""))
            else { continue }
            result[cells[0]] = (st, trips)
        }
        return result
    }
}
