import Foundation

/// A bash script run in a private mount namespace (`unshare -m`, as root), so that the
/// mounts it makes (a tmpfs, a read-only bind mount) vanish with it. The store's tests use
/// it for a full disk and a read-only folder; a script exits 99 when the machine refuses
/// the mount, which becomes `TestPaths.missing(...)`.
public enum MountNamespaceScript {
    /// Throws `TestPaths.missing` unless this process is root and has `unshare` (CI runs as root).
    public static func requireRoot(for mount: String) throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw TestPaths.missing("\(mount) needs root and unshare (CI runs as root)")
        }
    }

    /// Runs `script` and answers its output (stdout and stderr together).
    /// - Throws: `TestPaths.missing` naming `mount` when the script exited 99.
    public static func run(_ script: String, mount: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "--propagation", "private", "/bin/bash", "-c", script]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 99 { throw TestPaths.missing("this machine does not allow \(mount): \(text)") }
        return text
    }
}
