import ArgumentParser
import Foundation
import GTFSCompiler

/// `gtfs-compile manifest BUNDLE... -o manifest.json`: what a download server publishes.
struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Describe bundles and patches for a download server (schemas/manifest.schema.json).")

    @Argument(help: "Bundle files to list.")
    var bundles: [String]

    @Option(name: .shortAndLong, help: "Where to write the manifest (JSON).")
    var output: String

    @Option(name: .customLong("patch"), help: "A patch file (from gtfs-compile diff) to list; repeat for several.")
    var patches: [String] = []

    func run() throws {
        do {
            try BundleManifest(bundles: bundles, patches: patches).write(to: output)
        } catch let fatal as FatalDiagnostic {
            printError("gtfs-compile manifest: \(fatal.diagnostic.formatted)")
            throw ExitCode(1)
        }
    }
}
