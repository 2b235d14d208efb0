import ArgumentParser
import Foundation
import ManifestSigning

/// `gtfs-compile keygen --output KEY`: a manifest signing key (KEY, readable by its owner
/// only) and its public half (KEY.pub, what apps are given to trust).
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Make an Ed25519 key to sign manifests with: KEY and KEY.pub.")

    @Option(name: .shortAndLong, help: "Where to write the private key; the public key goes to the same path + .pub.")
    var output: String

    @Flag(help: "Replace existing key files.")
    var force = false

    func run() throws {
        let manager = FileManager.default
        guard force || (!manager.fileExists(atPath: output) && !manager.fileExists(atPath: output + ".pub")) else {
            printError("gtfs-compile keygen: \(output) or \(output).pub exists; pass --force to replace it")
            throw ExitCode(1)
        }
        let key = ManifestSignatures.PrivateKey()
        // Created with its mode: the secret is never readable by others, even for a moment.
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else {
            printError("gtfs-compile keygen: cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(key.text.utf8))
        try handle.synchronize()
        try Data(key.publicKey.text.utf8).write(to: URL(fileURLWithPath: output + ".pub"), options: .atomic)
        print("wrote \(output) (keep it secret) and \(output).pub (give it to apps: --trusted-key, trustedKeys:)")
    }
}
