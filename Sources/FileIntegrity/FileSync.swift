import Foundation

/// Durable file steps shared by the compiler and the patch applier: fsync of a file or a
/// folder, and a streaming copy.
package enum FileSync {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// fsync of a file or a folder (a folder after a rename makes the new name durable).
    package static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path) to sync: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(description: "fsync of \(path) failed: \(String(cString: strerror(errno)))") }
    }

    /// Copies `source` to a new file `destination` 1 MB at a time. A failure names the file
    /// and the system's reason (a full device is "No space left on device").
    package static func copy(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Failure(description: "cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Failure(description: "cannot create \(destination): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read \(source): \(String(cString: strerror(errno)))") }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else {
                    throw Failure(description: "cannot write \(destination): \(String(cString: strerror(errno)))")
                }
                written += step
            }
        }
    }
}
