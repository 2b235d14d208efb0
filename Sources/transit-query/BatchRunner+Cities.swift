import TransitRuntime

extension BatchRunner {
    func runCityQuery(_ op: String, _ q: [String: Any], into w: inout JSONWriter) throws {
        throw LineError(code: "bad_query", message: "unknown op \"\(op)\"")
    }
}
