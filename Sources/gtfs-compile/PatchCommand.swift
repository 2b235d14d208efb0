import ArgumentParser
import Foundation
import GTFSCompiler

/// `gtfs-compile patch OLD.db PATCH -o OUT.db`: applies a patch as an app would.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Apply a patch to a bundle (OLD is never modified; OUT may be OLD, replaced atomically).")

    @Argument(help: "The bundle to start from.")
    var bundle: String

    @Argument(help: "The patch (from gtfs-compile diff).")
    var patch: String

    @Option(name: .shortAndLong, help: "Where to write the patched bundle.")
    var output: String

    func run() throws {
        do {
            let hash = try BundlePatchFile.apply(bundle: bundle, patch: patch, output: output)
            printError("\(output): content \(hash)")
        } catch let fatal as FatalDiagnostic {
            printError("gtfs-compile patch: \(fatal.diagnostic.formatted)")
            throw ExitCode(1)
        }
    }
}
