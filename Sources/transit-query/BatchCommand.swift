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

    func run() throws {
        try reportingErrors {
            let opened = try BundleOptions.parse(bundle.map { ["--bundle", $0] } ?? []).open()
            // A batch answers many queries: read the timetable index once up front.
            try opened.preload()
            var runner = BatchRunner(bundle: opened)
            runner.live = try live.snapshot(opened, feed: nil) { try opened.instant(of: $0, feed: nil) }
            var out = OutputBuffer()
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy(\.isWhitespace) { continue }
                out.append(runner.answer(line).bytes)
            }
            out.flush()
        }
    }
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
