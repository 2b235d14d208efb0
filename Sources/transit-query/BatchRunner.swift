import Foundation
import TransitRuntime

/// Answers one batch line: parses the query object, runs it, renders the answer.
struct BatchRunner {
    let bundle: TransitBundle

    struct LineError: Error {
        let code: String
        let message: String
    }

    func answer(_ line: String) -> String {
        var w = JSONWriter()
        w.beginObject()
        var id: Any?
        do {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw LineError(code: "bad_json", message: "the line is not a JSON object")
            }
            id = object["id"]
            writeID(id, to: &w)
            try run(object, into: &w)
        } catch let error as TransitError {
            writeError(code: error.code, message: error.description, id: id, to: &w)
        } catch let error as LineError {
            writeError(code: error.code, message: error.message, id: id, to: &w)
        } catch {
            writeError(code: "internal", message: "\(error)", id: id, to: &w)
        }
        w.endObject()
        return w.text
    }

    private func writeError(code: String, message: String, id: Any?, to w: inout JSONWriter) {
        // Start again so a half-written answer is never printed.
        w = JSONWriter()
        w.beginObject()
        writeID(id, to: &w)
        w.key("error"); w.beginObject(); w.field("code", code); w.field("message", message); w.endObject()
    }

    private func writeID(_ id: Any?, to w: inout JSONWriter) {
        guard let id else { return }
        w.key("id")
        if let value = number(id) {
            if value == value.rounded(), abs(value) < 1e15 { w.value(Int(value)) } else { w.value(value) }
        } else if let text = id as? String {
            w.value(text)
        } else {
            w.null()
        }
    }

    private func run(_ q: [String: Any], into w: inout JSONWriter) throws {
        guard let op = q["op"] as? String else { throw LineError(code: "bad_query", message: "\"op\" is missing") }
        switch op {
        case "departures":
            let stop = try string(q, "stop")
            let at = try (q["at"] as? String).map(QueryTime.parse) ?? .instant(Date())
            let result = try bundle.departures(stop: stop, feed: q["feed"] as? String, at: at,
                                               windowMinutes: try int(q, "window") ?? 60, limit: try int(q, "limit") ?? 20)
            w.key("departures"); w.beginArray(); for d in result { JSONOutput.write(d, to: &w) }; w.endArray()
        case "stops":
            let limit = try int(q, "limit") ?? 20
            let result: [Stop]
            if let text = q["search"] as? String {
                result = try bundle.searchStops(text, limit: limit)
            } else if let near = q["near"] as? [Any], near.count == 2, let lat = number(near[0]), let lon = number(near[1]) {
                result = try bundle.stopsNear(lat: lat, lon: lon, radius: number(q["radius"] as Any) ?? 500, limit: limit)
            } else {
                throw LineError(code: "bad_query", message: "stops needs \"search\" or \"near\": [lat, lon]")
            }
            w.key("stops"); w.beginArray(); for s in result { JSONOutput.write(s, to: &w) }; w.endArray()
        case "trip":
            guard let date = ServiceDate(try string(q, "date")) else { throw LineError(code: "bad_query", message: "\"date\" must be YYYY-MM-DD") }
            let trip = try bundle.trip(id: try string(q, "trip"), feed: q["feed"] as? String, date: date)
            w.key("trip"); JSONOutput.write(trip, to: &w)
        case "info":
            w.key("info"); JSONOutput.write(try bundle.info(), to: &w)
        default:
            try runCityQuery(op, q, into: &w)
        }
    }

    func string(_ q: [String: Any], _ key: String) throws -> String {
        guard let value = q[key] as? String, !value.isEmpty else {
            throw LineError(code: "bad_query", message: "\"\(key)\" must be a non-empty string")
        }
        return value
    }

    func int(_ q: [String: Any], _ key: String) throws -> Int? {
        guard let raw = q[key] else { return nil }
        guard let value = number(raw), value == value.rounded(), value >= 0, value < 1e9 else {
            throw LineError(code: "bad_query", message: "\"\(key)\" must be a non-negative integer")
        }
        return Int(value)
    }

    /// A JSON number as Double; nil for anything else. JSONSerialization gives NSNumber for
    /// numbers and booleans alike (and `1 is Bool` holds), so booleans are told apart by type.
    func number(_ raw: Any) -> Double? {
        guard let value = raw as? NSNumber, !String(describing: type(of: raw)).contains("Boolean"),
              type(of: raw) != Bool.self else { return nil }
        return value.doubleValue
    }
}
