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

    /// Copies `source` to a new file `destination` 1 MB at a time.
    package static func copy(_ source: String, to destination: String) throws {
        guard let input = FileHandle(forReadingAtPath: source) else { throw Failure(description: "cannot read \(source)") }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination, contents: nil),
            let output = FileHandle(forWritingAtPath: destination)
        else { throw Failure(description: "cannot create \(destination)") }
        defer { try? output.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
    }
}
