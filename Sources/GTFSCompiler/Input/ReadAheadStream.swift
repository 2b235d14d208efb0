import Foundation

/// Reads another stream ahead on a second thread (at most `depth` chunks), so that
/// inflating a zip entry and parsing its CSV run on two cores at once.
final class ReadAheadStream: ByteStream {
    /// What the producer thread and the reader share, under one condition lock.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var chunks: [[UInt8]] = []
        var finished = false
        var failure: Error?
        var cancelled = false
        /// Set by the producer thread as its last act; `deinit` waits for it.
        var exited = false
    }

    private let shared = Shared()
    private var current: [UInt8] = []
    private var offset = 0
    let declaredSize: Int?

    init(_ source: ByteStream, chunkSize: Int = 1 << 20, depth: Int = 4) {
        declaredSize = source.declaredSize
        let shared = self.shared
        let box = UncheckedBox(source)
        Thread.detachNewThread {
            defer {
                shared.condition.lock()
                shared.exited = true
                shared.condition.broadcast()
                shared.condition.unlock()
            }
            while true {
                var chunk = [UInt8](repeating: 0, count: chunkSize)
                var count = 0
                var failure: Error?
                do {
                    count = try chunk.withUnsafeMutableBytes { try box.value.read(into: $0) }
                } catch {
                    failure = error
                }
                chunk.removeLast(chunkSize - count)
                shared.condition.lock()
                while shared.chunks.count >= depth && !shared.cancelled { shared.condition.wait() }
                if shared.cancelled {
                    shared.condition.unlock()
                    return
                }
                if let failure {
                    shared.failure = failure
                    shared.finished = true
                } else if count == 0 {
                    shared.finished = true
                } else {
                    shared.chunks.append(chunk)
                }
                let done = shared.finished
                shared.condition.broadcast()
                shared.condition.unlock()
                if done { return }
            }
        }
    }

    /// Stops the producer and waits for its thread to end (it finishes the chunk it is
    /// reading, at most `chunkSize` bytes), so no reader thread outlives the stream.
    deinit {
        shared.condition.lock()
        shared.cancelled = true
        shared.condition.broadcast()
        while !shared.exited { shared.condition.wait() }
        shared.condition.unlock()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset == current.count {
            shared.condition.lock()
            while shared.chunks.isEmpty && !shared.finished { shared.condition.wait() }
            if shared.chunks.isEmpty {
                let failure = shared.failure
                shared.condition.unlock()
                if let failure { throw failure }
                return 0
            }
            current = shared.chunks.removeFirst()
            offset = 0
            shared.condition.broadcast()
            shared.condition.unlock()
        }
        let count = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// Hands a non-Sendable value to exactly one other thread.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
