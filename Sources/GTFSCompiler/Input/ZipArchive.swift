import Foundation

/// A zip file read in place: its central directory is parsed once, and each entry
/// is streamed (stored or deflated) straight from the archive, never unpacked to disk.
/// Supports ZIP64, data descriptors (sizes come from the central directory), and a
/// feed kept inside one top-level folder.
final class ZipArchive: FeedSource {
    struct Entry {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
    }

    /// Archives with more entries than this are refused: no feed needs them.
    static let maxEntries = 10_000
    static let maxCentralDirectoryBytes = 16 << 20

    let path: String
    private(set) var entries: [String: Entry] = [:]
    private(set) var listingDiagnostics: [Diagnostic] = []
    private(set) var fileNames: Set<String> = []

    init(path: String) throws {
        self.path = path
        let file = try FileHandleStream(path: path)
        let size = file.size
        let (count, directoryOffset, directorySize) = try Self.findCentralDirectory(file: file, size: size, path: path)
        guard count <= UInt64(Self.maxEntries) else {
            throw FatalDiagnostic(
                .unreadableArchive, file: path, message: "archive lists \(count) entries, more than the \(Self.maxEntries) allowed")
        }
        guard directorySize <= UInt64(Self.maxCentralDirectoryBytes), directoryOffset + directorySize <= size else {
            throw FatalDiagnostic(.unreadableArchive, file: path, message: "central directory lies outside the file")
        }
        let directory = try file.read(at: directoryOffset, count: Int(directorySize))
        let all = try Self.parseEntries(directory, count: Int(count), archiveSize: size, path: path)
        placeEntries(all)
    }

    /// Keeps entries at the top level or inside one common top-level folder; the rest are reported.
    private func placeEntries(_ all: [Entry]) {
        let files = all.filter { !$0.name.hasSuffix("/") }
        var usable: [(parts: [Substring], entry: Entry)] = []
        for entry in files {
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.first == "__MACOSX" || parts.last?.hasPrefix("._") == true || parts.last == ".DS_Store" {
                continue
            }
            if entry.name.hasPrefix("/") || parts.contains("..") || entry.name.contains("\\") {
                listingDiagnostics.append(Diagnostic(.unknownFile, file: entry.name, message: "unsafe path in archive: ignored"))
                continue
            }
            usable.append((parts, entry))
        }
        let topLevel = usable.filter { $0.parts.count == 1 }
        let folders = Set(usable.filter { $0.parts.count == 2 }.map { $0.parts[0] })
        let useFolder = topLevel.isEmpty && folders.count == 1
        for (parts, entry) in usable {
            if parts.count == 1 || (useFolder && parts.count == 2) {
                let name = String(parts.last!)
                if entries[name] == nil {
                    entries[name] = entry
                    fileNames.insert(name)
                }
            } else {
                listingDiagnostics.append(
                    Diagnostic(.unknownFile, file: entry.name, message: "file in a sub-folder of the archive: ignored"))
            }
        }
    }

    func open(_ name: String) throws -> ByteStream? {
        guard let entry = entries[name] else { return nil }
        return try ZipEntryStream(archivePath: path, entry: entry)
    }

    func sha256() throws -> String { try GTFSCompiler.sha256(of: [try FileHandleStream(path: path)]) }

    // MARK: - Central directory

    private static func findCentralDirectory(file: FileHandleStream, size: UInt64, path: String) throws
        -> (count: UInt64, offset: UInt64, size: UInt64)
    {
        guard size >= 22 else { throw FatalDiagnostic(.unreadableArchive, file: path, message: "not a zip file (too short)") }
        let tailLength = Int(min(size, 22 + 65_535 + 20))
        let tailStart = size - UInt64(tailLength)
        let tail = try file.read(at: tailStart, count: tailLength)
        var at = tailLength - 22
        while at >= 0 && tail.u32(at) != 0x0605_4B50 { at -= 1 }
        guard at >= 0 else {
            throw FatalDiagnostic(.unreadableArchive, file: path, message: "not a zip file (no end of central directory)")
        }
        var count = UInt64(tail.u16(at + 10))
        var directorySize = UInt64(tail.u32(at + 12))
        var directoryOffset = UInt64(tail.u32(at + 16))
        // ZIP64: a locator sits right before the classic record.
        if at >= 20 && tail.u32(at - 20) == 0x0706_4B50 {
            let zip64Offset = tail.u64(at - 20 + 8)
            guard zip64Offset + 56 <= size else {
                throw FatalDiagnostic(.unreadableArchive, file: path, message: "ZIP64 record lies outside the file")
            }
            let record = try file.read(at: zip64Offset, count: 56)
            guard record.u32(0) == 0x0606_4B50 else {
                throw FatalDiagnostic(.unreadableArchive, file: path, message: "bad ZIP64 end record")
            }
            count = record.u64(32)
            directorySize = record.u64(40)
            directoryOffset = record.u64(48)
        }
        return (count, directoryOffset, directorySize)
    }

    private static func parseEntries(_ d: [UInt8], count: Int, archiveSize: UInt64, path: String) throws -> [Entry] {
        var entries: [Entry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= d.count, d.u32(at) == 0x0201_4B50 else {
                throw FatalDiagnostic(.unreadableArchive, file: path, message: "damaged central directory")
            }
            let nameLength = Int(d.u16(at + 28))
            let extraLength = Int(d.u16(at + 30))
            let commentLength = Int(d.u16(at + 32))
            guard at + 46 + nameLength + extraLength + commentLength <= d.count else {
                throw FatalDiagnostic(.unreadableArchive, file: path, message: "damaged central directory")
            }
            let name = String(decoding: d[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            var compressed = UInt64(d.u32(at + 20))
            var uncompressed = UInt64(d.u32(at + 24))
            var offset = UInt64(d.u32(at + 42))
            var extra = at + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = d.u16(extra)
                let length = Int(d.u16(extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF && field + 8 <= extraEnd {
                        uncompressed = d.u64(field)
                        field += 8
                    }
                    if compressed == 0xFFFF_FFFF && field + 8 <= extraEnd {
                        compressed = d.u64(field)
                        field += 8
                    }
                    if offset == 0xFFFF_FFFF && field + 8 <= extraEnd { offset = d.u64(field) }
                }
                extra += 4 + length
            }
            guard offset < archiveSize, compressed <= archiveSize else {
                throw FatalDiagnostic(.unreadableArchive, file: path, message: "entry \(name) lies outside the file")
            }
            entries.append(
                Entry(
                    name: name, method: d.u16(at + 10), flags: d.u16(at + 8), crc32: d.u32(at + 16),
                    compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset))
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }
}

extension Array where Element == UInt8 {
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
