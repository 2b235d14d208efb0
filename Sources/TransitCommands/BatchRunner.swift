import Foundation
import TransitJSON
import TransitRealtime
import TransitRuntime

/// Answers one batch line: decodes it as a `Query`, runs it, writes the `Answer` as JSON
/// under its key, echoing the line's `id`.
struct BatchRunner: Sendable {
    let bundle: TransitBundle
    /// `--realtime` and `--now`: departures and arrivals lines get live boards, plan lines
    /// ride on predicted times.
    var live: (snapshot: RealtimeSnapshot, now: Date)?
    /// The moment a line without `at` asks about (the command line: when it started).
    var now = Date()

    /// The line's answer as one line of JSON.
    func answer(_ line: BatchLine) -> [UInt8] {
        switch line {
        case .query(let text): return answer(text)
        case .tooLong(let number, let bytes):
            return JSONOutput.encoded(
                ErrorOutput(code: "line_too_long", message: "line \(number) is \(bytes) bytes (at most \(BatchLine.maxBytes)); not read"))
        }
    }

    /// The answer to a line of text as one line of JSON.
    func answer(_ line: String) -> [UInt8] {
        var id: JSONValue?
        do {
            guard let object = try? JSONParser.parse(Array(line.utf8)), case .object = object else {
                throw LineError.badJSON
            }
            id = object["id"]
            var query = try Query(json: object, now: now)
            if let live, case .plan(var request) = query {
                request.live = live
                query = .plan(request)
            }
            if let live, let (board, arrivals) = try query.liveBoard(from: bundle, realtime: live.snapshot, now: live.now) {
                return try JSONOutput.encoded(
                    KeyedOutput(
                        id: id, key: arrivals ? "arrivals" : "departures", value: board.departures,
                        realtimeNotApplied: board.notApplied))
            }
            let result = try query.answer(from: bundle)
            return try JSONOutput.encoded(KeyedOutput(id: id, key: result.key, value: result.value, searchedUntil: result.searchedUntil))
        } catch {
            let (code, message): (String, String)
            switch error {
            case let error as TransitError: (code, message) = (error.code, error.description)
            case let error as Query.Invalid: (code, message) = ("bad_query", error.description)
            case LineError.badJSON: (code, message) = ("bad_json", "the line is not a JSON object")
            default: (code, message) = ("internal", "\(error)")
            }
            return JSONOutput.encoded(ErrorOutput(id: id, code: code, message: message))
        }
    }

    private enum LineError: Error { case badJSON }
}

/// A line of a batch's input: a query's text, or a line longer than a query may be (its
/// number and length; its bytes were not kept).
enum BatchLine: Sendable {
    case query(String)
    case tooLong(line: Int, bytes: Int)

    /// The longest line read as a query (a plan with every option is a few hundred bytes).
    static let maxBytes = 65_536

    /// Line `number` of a batch from its bytes (without the newline; a CR before it is
    /// dropped); `length` is its whole length, past `maxBytes` when its rest was not kept.
    init(_ bytes: ArraySlice<UInt8>, number: Int, length: Int) {
        guard length <= Self.maxBytes else {
            self = .tooLong(line: number, bytes: length)
            return
        }
        let text = bytes.last == 0x0D ? bytes.dropLast() : bytes
        self = .query(String(decoding: text, as: UTF8.self))
    }

    /// A line of whitespace only: skipped, no answer written.
    var isBlank: Bool {
        if case .query(let text) = self { return text.allSatisfy(\.isWhitespace) }
        return false
    }
}

/// The lines of a batch given at once (`POST /v1/NAME/batch`), answered as `transit-query
/// batch` answers them: one JSON line per line that is not blank, in order.
///
/// ```swift
/// let answers = try BatchAnswers(Array(#"{"op":"info"}"#.utf8)).answered(by: bundle, context: CommandContext(now: Date()))
/// ```
public struct BatchAnswers: Sendable {
    /// The most lines one body may hold.
    public static let maxLines = 10_000

    let lines: [BatchLine]

    /// The body's lines (CR LF or LF; blank lines skipped).
    /// - Throws: `CommandFailure` (bad input) past `maxLines` lines.
    public init(_ body: [UInt8]) throws {
        var lines: [BatchLine] = []
        var number = 0
        for raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            let line = BatchLine(raw, number: number, length: raw.count)
            if line.isBlank { continue }
            guard lines.count < Self.maxLines else {
                throw CommandFailure(
                    code: "too_many_lines", message: "a batch holds at most \(Self.maxLines) lines", kind: .badInput)
            }
            lines.append(line)
        }
        self.lines = lines
    }

    /// How many queries the body holds.
    public var count: Int { lines.count }

    /// The answers, each line followed by a newline. Live data in `context` go into boards
    /// and plans, as `--realtime` files do on the command line.
    public func answered(by bundle: TransitBundle, context: CommandContext) -> [UInt8] {
        var runner = BatchRunner(bundle: bundle)
        runner.live = context.live
        runner.now = context.now
        var out: [UInt8] = []
        for line in lines {
            out += runner.answer(line)
            out.append(0x0A)
        }
        return out
    }
}
