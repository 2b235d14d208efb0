import BundleFormat
import FileIntegrity
import Foundation

/// One GTFS feed as a set of named files: a folder or a zip archive.
protocol FeedSource {
    /// The files the feed offers, by base name (`stops.txt`).
    var fileNames: Set<String> { get }
    /// Problems met while listing the files (unknown or unsafe entries).
    var listingDiagnostics: [Diagnostic] { get }
    /// A stream over one file's bytes, or nil when the feed lacks it.
    func open(_ name: String) throws -> ByteStream?
    /// Hex SHA-256 of the input (the zip file, or the folder's files in name order).
    func sha256() throws -> String
}

/// Opens `path` as a zip (by content) or a folder.
func openFeedSource(path: String) throws -> FeedSource {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw FatalDiagnostic(.unreadableInput, file: path, message: "no such file or folder")
    }
    return isDirectory.boolValue ? try FolderFeedSource(path: path) : try ZipArchive(path: path)
}

/// Computes a SHA-256 over a sequence of streams.
func sha256(of streams: [ByteStream]) throws -> String {
    var hasher = SHA256()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
    defer { buffer.deallocate() }
    for stream in streams {
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
    return hasher.finalizeHex()
}
