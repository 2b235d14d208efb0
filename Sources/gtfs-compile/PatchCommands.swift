import ArgumentParser
import Foundation
import GTFSCompiler

/// The files of `gtfs-compile diff` and `gtfs-compile patch`: a bundle, the new version or
/// the patch to go to it, and where the result goes.
struct PatchFiles: ParsableArguments {
    @Argument(help: "The bundle apps have (diff), or the bundle to start from (patch; never modified).")
    var bundle: String

    @Argument(help: "The new version (diff), or the patch from gtfs-compile diff (patch).")
    var other: String

    @Option(
        name: .shortAndLong, help: "Where to write the patch (diff) or the patched bundle (patch; may be the bundle, replaced atomically).")
    var output: String

    /// Runs `body`, printing a refusal as `gtfs-compile COMMAND: reason` and exiting 1.
    func reporting(_ command: String, _ body: () throws -> String) throws {
        do {
            printError(try body())
        } catch let fatal as FatalDiagnostic {
            printError("gtfs-compile \(command): \(fatal.diagnostic.formatted)")
            throw ExitCode(1)
        }
    }
}

/// `gtfs-compile diff OLD.db NEW.db -o PATCH`: the patch from one bundle version to the next.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Write the patch that turns OLD into a bundle with NEW's content (compile NEW with --base OLD for a small one).")

    @OptionGroup var files: PatchFiles

    func run() throws {
        try files.reporting("diff") {
            let s = try BundleDiff.write(old: files.bundle, new: files.other, to: files.output)
            return
                "\(files.output): \(s.bytes) bytes, \(s.tablesChanged) tables, \(s.rowsDeleted) rows deleted, \(s.rowsPut) put, \(s.rowsUpdated) updated; content \(s.fromHash.prefix(12))… -> \(s.toHash.prefix(12))…"
        }
    }
}

/// `gtfs-compile patch OLD.db PATCH -o OUT.db`: applies a patch as an app would.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Apply a patch to a bundle (OLD is never modified; OUT may be OLD, replaced atomically).")

    @OptionGroup var files: PatchFiles

    func run() throws {
        try files.reporting("patch") {
            "\(files.output): content \(try BundlePatchFile.apply(bundle: files.bundle, patch: files.other, output: files.output))"
        }
    }
}
