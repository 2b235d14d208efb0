import BundleFormat
import Foundation
import TransitJSON
import TransitRuntime

/// Answers one batch line: parses the query object, runs it, renders the answer.
struct BatchRunner {
    let bundle: TransitBundle

    struct LineError: Error {
        let code: String
        let message: String
    }

    func answer(_ line: String) -> JSONWriter {
        var w = JSONWriter()
        var id: JSONValue?
        do {
            guard let object = try? JSONParser.parse(Array(line.utf8)), case .object = object else {
                throw LineError(code: "bad_json", message: "the line is not a JSON object")
            }
            id = object["id"]
            w.beginObject()
            writeID(id, to: &w)
            try run(object, into: &w)
            w.endObject()
        } catch {
            // Start again so a half-written answer is never printed.
            w = JSONWriter()
            w.beginObject()
            writeID(id, to: &w)
            let (code, message): (String, String)
            switch error {
            case let error as TransitError: (code, message) = (error.code, error.description)
            case let error as LineError: (code, message) = (error.code, error.message)
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

    /// Echoes the query's id as it came: a number, a string, a boolean or null.
    private func writeID(_ id: JSONValue?, to w: inout JSONWriter) {
        guard let id else { return }
        w.key("id")
        switch id {
        case .number(let value): w.value(value)
        case .string(let text): w.value(text)
        case .bool(let flag): w.value(flag)
        default: w.null()
        }
    }

    private func run(_ q: JSONValue, into w: inout JSONWriter) throws {
        guard case .string(let op)? = q["op"] else { throw LineError(code: "bad_query", message: "\"op\" is missing") }
        switch op {
        case "departures":
            let stop = try string(q, "stop")
            let at = try optionalString(q, "at").map(QueryTime.parse) ?? .instant(Date())
            let result = try bundle.departures(
                stop: stop, feed: try optionalString(q, "feed"), at: at,
                windowMinutes: try int(q, "window") ?? 60, limit: try int(q, "limit") ?? 20)
            w.key("departures")
            w.beginArray()
            for d in result { JSONOutput.write(d, to: &w) }
            w.endArray()
        case "stops":
            let limit = try int(q, "limit") ?? 20
            let result: [Stop]
            if let text = try optionalString(q, "search") {
                result = try bundle.searchStops(text, limit: limit)
            } else if let point = try coordinate(q, "near") {
                result = try bundle.stopsNear(lat: point.0, lon: point.1, radius: try number(q, "radius") ?? 500, limit: limit)
            } else {
                throw LineError(code: "bad_query", message: "stops needs \"search\" or \"near\": [lat, lon]")
            }
            w.key("stops")
            w.beginArray()
            for s in result { JSONOutput.write(s, to: &w) }
            w.endArray()
        case "trip":
            guard let date = ServiceDate(try string(q, "date")) else {
                throw LineError(code: "bad_query", message: "\"date\" must be YYYY-MM-DD")
            }
            let trip = try bundle.trip(id: try string(q, "trip"), feed: try optionalString(q, "feed"), date: date)
            w.key("trip")
            JSONOutput.write(trip, to: &w)
        case "info":
            w.key("info")
            JSONOutput.write(try bundle.info(), to: &w)
        default:
            try runCityQuery(op, q, into: &w)
        }
    }

    func optionalString(_ q: JSONValue, _ key: String) throws -> String? {
        switch q[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw LineError(code: "bad_query", message: "\"\(key)\" must be a string, not \(other.typeName)")
        }
    }

    func string(_ q: JSONValue, _ key: String) throws -> String {
        guard let value = try optionalString(q, key), !value.isEmpty else {
            throw LineError(code: "bad_query", message: "\"\(key)\" must be a non-empty string")
        }
        return value
    }

    func number(_ q: JSONValue, _ key: String) throws -> Double? {
        switch q[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case let other?: throw LineError(code: "bad_query", message: "\"\(key)\" must be a number, not \(other.typeName)")
        }
    }

    func int(_ q: JSONValue, _ key: String) throws -> Int? {
        guard let value = try number(q, key) else { return nil }
        guard value == value.rounded(), value >= 0, value < 1e9 else {
            throw LineError(code: "bad_query", message: "\"\(key)\" must be a non-negative integer")
        }
        return Int(value)
    }

    /// `[lat, lon]`, or nil when the key is absent.
    func coordinate(_ q: JSONValue, _ key: String) throws -> (Double, Double)? {
        guard let value = q[key] else { return nil }
        guard case .array(let items) = value, items.count == 2, case .number(let lat) = items[0], case .number(let lon) = items[1] else {
            throw LineError(code: "bad_query", message: "\"\(key)\" must be [lat, lon]")
        }
        return (lat, lon)
    }
}
