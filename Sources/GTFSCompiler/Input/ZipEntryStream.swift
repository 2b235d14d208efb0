import CZlib
import Foundation

/// Streams one zip entry's uncompressed bytes, inflating as it goes. Checks that the
/// output matches the declared size (so a deflate bomb stops at the declared size)
/// and the CRC-32. Deflate goes through `RawInflater`.
final class ZipEntryStream: ByteStream {
    private let file: FileHandleStream
    private let entry: ZipArchive.Entry
    private var compressedLeft: UInt64
    private var produced: UInt64 = 0
    /// The CRC-32 of a stored entry's bytes so far (a deflated one's is the inflater's).
    private var storedCRC: UInt = 0
    private var finished = false
    private let input: UnsafeMutableRawBufferPointer
    private var inflater: RawInflater?

    var declaredSize: Int? { Int(exactly: entry.uncompressedSize) }

    init(archivePath: String, entry: ZipArchive.Entry) throws {
        self.entry = entry
        file = try FileHandleStream(path: archivePath)
        compressedLeft = entry.compressedSize
        input = .allocate(byteCount: 256 << 10, alignment: 8)
        guard entry.flags & 1 == 0 else { throw failure("entry is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw failure("compression method \(entry.method) is not supported (only stored and deflate)")
        }
        let header = try file.read(at: entry.localHeaderOffset, count: 30)
        guard header.u32(0) == 0x0403_4B50 else { throw failure("local header missing") }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        try file.seek(to: dataOffset)
        if entry.method == 8 {
            do { inflater = try RawInflater() } catch { throw failure("cannot start inflate") }
        } else if entry.compressedSize != entry.uncompressedSize {
            throw failure("stored entry's sizes disagree")
        }
    }

    deinit { input.deallocate() }

    private func failure(_ message: String) -> FatalDiagnostic {
        FatalDiagnostic(.unreadableArchive, file: entry.name, message: message)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        let count = try (inflater == nil ? readStored(into: buffer) : inflate(into: buffer))
        produced += UInt64(count)
        if produced > entry.uncompressedSize {
            throw failure("expands beyond its declared size of \(entry.uncompressedSize) bytes")
        }
        if count == 0 {
            finished = true
            guard produced == entry.uncompressedSize else {
                throw failure("holds \(produced) bytes, but its header declares \(entry.uncompressedSize)")
            }
            let checksum = inflater?.crc ?? UInt32(truncatingIfNeeded: storedCRC)
            guard checksum == entry.crc32 else { throw failure("CRC-32 mismatch: the entry is damaged") }
        }
        return count
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(UInt64(buffer.count), compressedLeft))
        guard want > 0 else { return 0 }
        let got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        guard got > 0 else { throw failure("archive ends inside the entry") }
        compressedLeft -= UInt64(got)
        storedCRC = crc32(storedCRC, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(got))
        return got
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let inflater else { return 0 }
        do {
            return try inflater.inflate(into: buffer) {
                guard compressedLeft > 0 else { return nil }
                let want = Int(min(UInt64(input.count), compressedLeft))
                let got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
                guard got > 0 else { throw failure("archive ends inside the entry") }
                compressedLeft -= UInt64(got)
                return UnsafeRawBufferPointer(rebasing: input[0..<got])
            }.count
        } catch RawInflater.Failure.truncated {
            throw failure("deflate stream is truncated")
        } catch RawInflater.Failure.damaged(let code) {
            throw failure("deflate data is damaged (\(RawInflater.libraryName) \(code))")
        }
    }
}
