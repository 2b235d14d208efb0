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
            var query = try Query(json: object)
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
}
