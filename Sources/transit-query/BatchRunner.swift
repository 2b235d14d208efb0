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

    func answer(_ line: String) -> JSONWriter {
        var w = JSONWriter()
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
                w.beginObject()
                writeID(id, to: &w)
                w.key(arrivals ? "arrivals" : "departures")
                w.raw(JSONOutput.encoded(board.departures))
                if let note = board.notApplied { w.field("realtime_not_applied", note) }
                w.endObject()
                return w
            }
            let result = try query.answer(from: bundle)
            w.beginObject()
            writeID(id, to: &w)
            w.key(result.key)
            result.writeJSON(to: &w)
            w.endObject()
        } catch {
            // Start again so a half-written answer is never printed.
            w = JSONWriter()
            w.beginObject()
            writeID(id, to: &w)
            let (code, message): (String, String)
            switch error {
            case let error as TransitError: (code, message) = (error.code, error.description)
            case let error as Query.Invalid: (code, message) = ("bad_query", error.description)
            case LineError.badJSON: (code, message) = ("bad_json", "the line is not a JSON object")
            default: (code, message) = ("internal", "\(error)")
            }
            w.key("error")
            w.beginObject()
            w.field("code", code)
            w.field("message", message)
            w.endObject()
            w.endObject()
        }
        return w
    }

    private enum LineError: Error { case badJSON }

    /// Echoes the query's id as it came: a number, a string, a boolean or null.
    private func writeID(_ id: JSONValue?, to w: inout JSONWriter) {
        guard let id else { return }
        w.key("id")
        switch id {
        case .number(let value): w.value(value)
        case .integer(let value): w.value(value)
        case .string(let text): w.value(text)
        case .bool(let flag): w.value(flag)
        default: w.null()
        }
    }
}
