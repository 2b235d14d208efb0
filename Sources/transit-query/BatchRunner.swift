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
                return JSONOutput.encoded(
                    KeyedOutput(
                        id: id, key: arrivals ? "arrivals" : "departures", value: board.departures,
                        realtimeNotApplied: board.notApplied))
            }
            let result = try query.answer(from: bundle)
            return JSONOutput.encoded(KeyedOutput(id: id, key: result.key, value: result.value, searchedUntil: result.searchedUntil))
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
