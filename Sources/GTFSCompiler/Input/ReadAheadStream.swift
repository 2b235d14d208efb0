import Foundation

/// Reads another stream ahead on a second thread (at most `depth` chunks), so that
/// inflating a zip entry and parsing its CSV run on two cores at once.
final class ReadAheadStream: ByteStream {
    /// What the producer thread and the reader share, under one condition lock.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        /// Filled chunks in order, each with the number of bytes it holds.
        var chunks: [(bytes: [UInt8], count: Int)] = []
        /// Chunks the reader has finished, for the producer to fill again: a fresh megabyte
        /// per chunk would be zeroed and faulted in by the kernel each time.
        var spare: [[UInt8]] = []
        var finished = false
        var failure: Error?
        var cancelled = false
    }

    private let shared: Shared
    private let thread: JoinedThread
    private var current: [UInt8] = []
    private var currentCount = 0
    private var offset = 0
    let declaredSize: Int?

    init(_ source: ByteStream, chunkSize: Int = 1 << 20, depth: Int = 4) {
        declaredSize = source.declaredSize
        let shared = Shared()
        self.shared = shared
        let box = UncheckedBox(source)
        thread = JoinedThread {
            while true {
                shared.condition.lock()
                var chunk = shared.spare.popLast() ?? []
                shared.condition.unlock()
                if chunk.isEmpty { chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { _, count in count = chunkSize } }
                var count = 0
                var failure: Error?
                do {
                    count = try chunk.withUnsafeMutableBytes { try box.value.read(into: $0) }
                } catch {
                    failure = error
                }
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
                    shared.chunks.append((chunk, count))
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
        shared.condition.unlock()
        thread.join()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset == currentCount {
            shared.condition.lock()
            if !current.isEmpty { shared.spare.append(current) }
            current = []
            while shared.chunks.isEmpty && !shared.finished { shared.condition.wait() }
            if shared.chunks.isEmpty {
                let failure = shared.failure
                shared.condition.unlock()
                if let failure { throw failure }
                return 0
            }
            (current, currentCount) = shared.chunks.removeFirst()
            offset = 0
            shared.condition.broadcast()
            shared.condition.unlock()
        }
        let count = min(buffer.count, currentCount - offset)
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
