import Foundation

/// Reads a regular file through C stdio, in large chunks.
final class FileHandleStream: ByteStream {
    private let file: UnsafeMutablePointer<FILE>
    let path: String

    var declaredSize: Int? { Int(exactly: size) }

    init(path: String) throws {
        guard let file = fopen(path, "rb") else {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        self.file = file
        self.path = path
    }

    deinit { fclose(file) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = fread(base, 1, buffer.count, file)
        if count == 0 && ferror(file) != 0 {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "read failed")
        }
        return count
    }

    /// Reads exactly `count` bytes at `offset`; throws when the file is shorter.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard fseeko(file, off_t(offset), SEEK_SET) == 0 else {
            throw FatalDiagnostic(.unreadableArchive, file: path, message: "cannot seek to byte \(offset)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        guard got == count else {
            throw FatalDiagnostic(
                .unreadableArchive, file: path, message: "file ends at byte \(offset + UInt64(got)), \(count - got) bytes short")
        }
        return bytes
    }

    func seek(to offset: UInt64) throws {
        guard fseeko(file, off_t(offset), SEEK_SET) == 0 else {
            throw FatalDiagnostic(.unreadableArchive, file: path, message: "cannot seek to byte \(offset)")
        }
    }

    var size: UInt64 {
        let here = ftello(file)
        fseeko(file, 0, SEEK_END)
        let end = ftello(file)
        fseeko(file, here, SEEK_SET)
        return UInt64(max(0, end))
    }
}
