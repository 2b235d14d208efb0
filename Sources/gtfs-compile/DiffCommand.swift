import ArgumentParser
import Foundation
import GTFSCompiler

/// `gtfs-compile diff OLD.db NEW.db -o PATCH`: the patch from one bundle version to the next.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Write the patch that turns OLD into a bundle with NEW's content (compile NEW with --base OLD for a small one).")

    @Argument(help: "The bundle apps have.")
    var old: String

    @Argument(help: "The new version.")
    var new: String

    @Option(name: .shortAndLong, help: "Where to write the patch.")
    var output: String

    func run() throws {
        do {
            let s = try BundleDiff.write(old: old, new: new, to: output)
            printError(
                "\(output): \(s.bytes) bytes, \(s.tablesChanged) tables, \(s.rowsDeleted) rows deleted, \(s.rowsPut) put, \(s.rowsUpdated) updated; content \(s.fromHash.prefix(12))… -> \(s.toHash.prefix(12))…"
            )
        } catch let fatal as FatalDiagnostic {
            printError("gtfs-compile diff: \(fatal.diagnostic.formatted)")
            throw ExitCode(1)
        }
    }
}
