import ArgumentParser
import Foundation
import GTFSCompiler
import ManifestSigning

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

    @Option(
        help: "The manifest's sequence number; each published manifest needs a larger one (default: the Unix time now, in milliseconds).")
    var sequence: Int64?

    @Option(
        help: ArgumentHelp(
            "The manifest this one follows (default: the one at OUTPUT, if any): the default sequence is at least one past its.",
            valueName: "FILE"))
    var previous: String?

    @Option(help: "Days until the manifest expires and installs nothing new (default 30).")
    var expiresInDays: Int = 30

    @Option(
        name: .customLong("sign"),
        help: ArgumentHelp(
            "A private key (gtfs-compile keygen) to sign with, into OUTPUT.sig; repeat to sign with several.", valueName: "KEY"))
    var keys: [String] = []

    func validate() throws {
        guard (1...3650).contains(expiresInDays) else { throw ValidationError("--expires-in-days must be 1 to 3650") }
        if let sequence, sequence < 0 { throw ValidationError("--sequence must not be negative") }
    }

    func run() throws {
        do {
            let signing = try keys.map { path -> ManifestSignatures.PrivateKey in
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ValidationError("cannot read the key \(path)")
                }
                return try ManifestSignatures.PrivateKey(text: text)
            }
            var manifest = try BundleManifest(bundles: bundles, patches: patches)
            let now = Date()
            // Milliseconds: two manifests published within one second still get two numbers
            // (a store refuses a second manifest with the last one's number).
            // Never a number written before: at least one past the previous manifest's (a
            // clock set back, or two publications in one millisecond).
            let clock = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            let previousNumber = sequence == nil ? try previousSequence() : nil
            manifest.sequence = sequence ?? max(clock, previousNumber.map { $0 + 1 } ?? clock)
            manifest.expires = now.addingTimeInterval(Double(expiresInDays) * 86_400)
            let data = try manifest.data(for: output)
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            if !signing.isEmpty {
                try ManifestSignatures.sign(data, with: signing).write(to: URL(fileURLWithPath: output + ".sig"), options: .atomic)
            }
        } catch let fatal as FatalDiagnostic {
            printError("gtfs-compile manifest: \(fatal.diagnostic.formatted)")
            throw ExitCode(1)
        } catch let refusal as ManifestSignatures.Refusal {
            printError("gtfs-compile manifest: \(refusal)")
            throw ExitCode(1)
        }
    }

    /// The sequence of the manifest this one follows, nil when there is none (or it has none).
    private func previousSequence() throws -> Int64? {
        let path = previous ?? output
        guard let data = FileManager.default.contents(atPath: path) else {
            if previous != nil { throw ValidationError("--previous \(path): cannot read it") }
            return nil
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            if previous != nil { throw ValidationError("--previous \(path): not a manifest (JSON object)") }
            return nil
        }
        return (object["sequence"] as? NSNumber)?.int64Value
    }
}
