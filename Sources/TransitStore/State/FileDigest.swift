import FileIntegrity
import Foundation

/// File hashing for verification, with the platform's SHA-256 (README.md, "Dependencies, and why").
///
/// ```swift
/// let hex = try FileDigest.sha256(of: "lisbon.db")
/// ```
public enum FileDigest {
    /// The SHA-256 of a file's bytes (lower-case hex), read 1 MB at a time: what a download is
    /// verified against.
    public static func sha256(of path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.storage("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw StoreError.storage("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return hasher.finalizeHex()
    }
}
