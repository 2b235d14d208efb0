import ArgumentParser
import Foundation
import TransitRuntime

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Answer one JSON query per input line with one JSON result per output line.",
        discussion: """
            Each line is an object with "op" (departures, arrivals, stops, trip, shape, transfers, agencies, routes, route, nearest, \
            info, city, cities, plan) and an optional "id" \
            echoed in the answer. A bad line gives {"id":...,"error":{"code":...,"message":...}} and the batch goes on. \
            --realtime applies to every departures, arrivals and plan line; --now holds for the whole run, local to the \
            first feed or with an offset.
            """)

    @Option(help: "The bundle to read (default: $TRANSIT_BUNDLE).")
    var bundle: String?

    @OptionGroup var live: LiveOptions

    @Option(
        help: """
            Threads answering lines, 1 to 64 (default: the machine's active cores). Answers are printed in the order \
            of their lines whatever the number.
            """)
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be 1 to 64") }
    }

    /// Lines read before they are answered together: enough to keep every thread busy,
    /// few enough that answers follow their questions closely.
    static let chunkLines = 512

    func run() throws {
        try reportingErrors {
            let opened = try BundleOptions.parse(bundle.map { ["--bundle", $0] } ?? []).open()
            // A batch answers many queries: read the timetable index once up front.
            try opened.preload()
            var runner = BatchRunner(bundle: opened)
            runner.live = try live.snapshot(opened, feed: nil) { try opened.instant(of: $0, feed: nil) }
            let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            let io = BatchIO()
            var chunk = io.readLines(Self.chunkLines)
            var previous: [[UInt8]] = []
            while !chunk.isEmpty {
                // The last chunk's answers are written and the next chunk read while this one
                // is answered.
                let done = previous
                (previous, chunk) = Self.answers(chunk, runner: runner, threads: threads) {
                    io.write(done)
                    return io.readLines(Self.chunkLines)
                }
            }
            io.write(previous)
            io.flush()
        }
    }

    /// The answers to `lines`, in their order, and what `alongside` returns: with several
    /// threads the lines are answered in slices taken by whichever of `threads` threads is
    /// free, one of them running `alongside` first. Every thread has finished when this
    /// returns.
    static func answers(
        _ lines: [BatchLine], runner: BatchRunner, threads: Int, alongside: () -> [BatchLine]
    ) -> (answers: [[UInt8]], next: [BatchLine]) {
        guard threads > 1 && lines.count > 1 else { return (lines.map { runner.answer($0) }, alongside()) }
        let slices = min(lines.count, threads * 8)
        var answers = [[UInt8]](repeating: [], count: lines.count)
        let shared = SharedWork(slices: slices)
        answers.withUnsafeMutableBufferPointer { buffer in
            withoutActuallyEscaping(alongside) { alongside in
                // Each slice is answered by one thread, which writes only its slots.
                nonisolated(unsafe) let slots = buffer
                nonisolated(unsafe) let alongside = alongside
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    if thread == 0 { shared.next = alongside() }
                    while let slice = shared.takeSlice() {
                        for i in (lines.count * slice / slices)..<(lines.count * (slice + 1) / slices) {
                            slots[i] = runner.answer(lines[i])
                        }
                    }
                }
            }
        }
        return (answers, shared.next)
    }
}

/// What the threads of one `answers` call share: the next slice to answer, and the lines
/// thread 0 reads meanwhile.
private final class SharedWork: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = 0
    private let slices: Int
    /// Written by thread 0 only, read after every thread has finished.
    var next: [BatchLine] = []

    init(slices: Int) { self.slices = slices }

    /// The next slice no thread has taken, nil when none is left.
    func takeSlice() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < slices else { return nil }
        taken += 1
        return taken - 1
    }
}

/// Standard input's lines and standard output's answers for a batch, used by one thread
/// at a time. A line is read up to `BatchLine.maxBytes`; the rest of a longer one is
/// skipped unread into memory, and the line answered with an error.
private final class BatchIO {
    private var out = OutputBuffer()
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var number = 0

    /// Up to `count` lines that are not blank; none at the end of the input.
    func readLines(_ count: Int) -> [BatchLine] {
        var lines: [BatchLine] = []
        lines.reserveCapacity(count)
        while lines.count < count, let line = nextLine() {
            if line.isBlank { continue }
            lines.append(line)
        }
        return lines
    }

    /// The next line (without its newline), nil at the end of the input.
    private func nextLine() -> BatchLine? {
        var kept: [UInt8] = []
        var length = 0
        while true {
            if start == end {
                guard !atEnd else { break }
                let read = input.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if read <= 0 {
                    atEnd = true
                    break
                }
                (start, end) = (0, read)
            }
            let newline = input[start..<end].firstIndex(of: 0x0A)
            let stop = newline ?? end
            if length + (stop - start) <= BatchLine.maxBytes { kept += input[start..<stop] }
            length += stop - start
            start = newline.map { $0 + 1 } ?? end
            if newline != nil { return line(kept, length: length) }
        }
        return length > 0 ? line(kept, length: length) : nil
    }

    private func line(_ bytes: [UInt8], length: Int) -> BatchLine {
        number += 1
        return BatchLine(bytes[...], number: number, length: length)
    }

    func write(_ answers: [[UInt8]]) {
        for answer in answers { out.append(answer) }
    }

    func flush() { out.flush() }
}

/// Buffers stdout writes into large chunks.
struct OutputBuffer {
    private var pending: [UInt8] = []

    mutating func append(_ line: [UInt8]) {
        pending += line
        pending.append(0x0A)
        if pending.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
