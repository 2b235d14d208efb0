@testable import GTFSCompiler

/// A stream that hands out its bytes `step` at a time, to test chunk boundaries.
final class DribbleStream: ByteStream {
    private let bytes: [UInt8]
    private var at = 0
    private let step: Int

    init(_ text: String, step: Int = 1) {
        bytes = Array(text.utf8)
        self.step = step
    }
    init(bytes: [UInt8], step: Int = 1) {
        self.bytes = bytes
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(step, buffer.count, bytes.count - at)
        for i in 0..<n { buffer[i] = bytes[at + i] }
        at += n
        return n
    }
}
