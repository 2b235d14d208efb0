import TransitCommands
import TransitJSON

/// `/openapi.json`: an OpenAPI 3.1 description of every endpoint. The query endpoints and
/// their parameters come from the commands themselves (`CommandQuestion.specList`: the same
/// names, help and required options as `transit-query --help`), so the document cannot
/// drift from what the server takes.
enum OpenAPIDocument {
    /// The document of a server serving `bundles` (the names its `{bundle}` takes).
    static func json(bundles: [String]) -> [UInt8] {
        (try? CompactJSONEncoder().encode(document(bundles: bundles))) ?? []
    }

    static func document(bundles: [String]) -> JSONValue {
        var paths: [(key: String, value: JSONValue)] = []
        let bundle = object([
            ("name", .string("bundle")), ("in", .string("path")), ("required", .bool(true)),
            ("description", .string("The bundle's name (`--bundle NAME=PATH`, or its id in a store): one this server serves.")),
            ("schema", object([("type", .string("string")), ("enum", .array(bundles.map(JSONValue.string)))])),
        ])
        for spec in CommandQuestion.specList {
            var parameters: [JSONValue] = [bundle]
            for parameter in spec.list {
                let schema: JSONValue =
                    parameter.kind == .flag
                    ? object([("type", .string("boolean"))])
                    : parameter.isRepeating
                        ? object([("type", .string("array")), ("items", object([("type", .string("string"))]))])
                        : object([("type", .string("string"))])
                parameters.append(
                    object([
                        ("name", .string(parameter.name)), ("in", .string("query")), ("required", .bool(parameter.isRequired)),
                        ("description", .string(parameter.help)), ("schema", schema),
                    ]))
            }
            paths.append(
                (
                    "/v1/{bundle}/\(spec.command)",
                    object([
                        (
                            "get",
                            object([
                                ("operationId", .string(spec.command)), ("summary", .string(spec.abstract)),
                                (
                                    "description",
                                    .string(
                                        "What `transit-query \(spec.command) --json` prints for the same options (docs/transit-query.md).")
                                ),
                                ("parameters", .array(parameters)),
                                ("responses", answerResponses(live: ["departures", "arrivals", "plan"].contains(spec.command))),
                            ])
                        )
                    ])
                ))
        }
        paths.append(
            (
                "/v1/{bundle}/stops/{stop}/departures",
                object([
                    (
                        "get",
                        object([
                            ("operationId", .string("stopDepartures")), ("summary", .string("Departures from a stop today at a time.")),
                            (
                                "parameters",
                                .array([
                                    bundle,
                                    object([
                                        ("name", .string("stop")), ("in", .string("path")), ("required", .bool(true)),
                                        ("schema", object([("type", .string("string"))])),
                                    ]),
                                    object([
                                        ("name", .string("time")), ("in", .string("query")), ("required", .bool(false)),
                                        ("description", .string("HH:MM today in the stop's feed time zone (default: now).")),
                                        (
                                            "schema",
                                            object([
                                                ("type", .string("string")), ("pattern", .string("^[0-2][0-9]:[0-5][0-9](:[0-5][0-9])?$")),
                                            ])
                                        ),
                                    ]),
                                ])
                            ),
                            ("responses", answerResponses(live: true)),
                        ])
                    )
                ])
            ))
        paths.append(
            (
                "/v1/{bundle}/batch",
                object([
                    (
                        "post",
                        object([
                            ("operationId", .string("batch")),
                            ("summary", .string("The lines of `transit-query batch`, answered as it answers them.")),
                            ("parameters", .array([bundle])),
                            (
                                "requestBody",
                                object([
                                    ("required", .bool(true)),
                                    (
                                        "content",
                                        object([
                                            ("text/plain", object([("schema", object([("type", .string("string"))]))])),
                                            ("application/x-ndjson", object([("schema", object([("type", .string("string"))]))])),
                                        ])
                                    ),
                                ])
                            ),
                            (
                                "responses",
                                object([
                                    ("200", textResponse("One JSON answer per line.", type: "application/x-ndjson")),
                                    ("400", errorResponse("Too many lines.")), ("404", errorResponse("No such bundle.")),
                                    ("408", errorResponse("The body did not arrive in time.")),
                                    ("413", errorResponse("The body is too large.")),
                                    ("414", errorResponse("The path and query are too long.")),
                                ])
                            ),
                        ])
                    )
                ])
            ))
        paths.append(
            (
                "/v1/{bundle}/realtime",
                simpleGet("realtime", "Each live source of the bundle and the snapshot's report.", parameters: [bundle])
            ))
        paths.append(("/v1", simpleGet("bundles", "The bundles served, with their versions.")))
        paths.append(("/healthz", simpleGet("healthz", "200 while the process serves.", type: "text/plain")))
        paths.append(
            ("/readyz", simpleGet("readyz", "200 when every bundle is open and every live source fresh, else 503 with the reasons.")))
        paths.append(("/metrics", simpleGet("metrics", "Prometheus text.", type: "text/plain")))
        paths.append(("/openapi.json", simpleGet("openapi", "This document.")))
        return object([
            ("openapi", .string("3.1.0")),
            (
                "info",
                object([
                    ("title", .string("transit-server")), ("version", .string("1")),
                    ("description", .string("The transit runtime over HTTP: the answers of transit-query --json, with live data.")),
                ])
            ),
            ("paths", .object(paths)),
            (
                "components",
                object([
                    (
                        "schemas",
                        object([
                            (
                                "Error",
                                object([
                                    ("type", .string("object")), ("required", .array([.string("error")])),
                                    (
                                        "properties",
                                        object([
                                            (
                                                "error",
                                                object([
                                                    ("type", .string("object")),
                                                    ("required", .array([.string("code"), .string("message")])),
                                                    (
                                                        "properties",
                                                        object([
                                                            ("code", object([("type", .string("string"))])),
                                                            ("message", object([("type", .string("string"))])),
                                                        ])
                                                    ),
                                                ])
                                            )
                                        ])
                                    ),
                                ])
                            ),
                            (
                                "Answer",
                                object([
                                    (
                                        "description",
                                        .string(
                                            "The Codable encoding of the runtime's type for the command (Departure, LiveDeparture, Stop, TripDetails, Shape, Agency, Route, RouteDetails, Transfer, BundleInfo, City, Journey): an array for lists, an object otherwise; fields in docs/transit-query.md."
                                        )
                                    ), ("type", .array([.string("object"), .string("array")])),
                                ])
                            ),
                        ])
                    )
                ])
            ),
        ])
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { (key: $0.0, value: $0.1) }) }

    private static func answerResponses(live: Bool) -> JSONValue {
        object([
            (
                "200",
                object([
                    (
                        "description",
                        .string(
                            live ? "The answer; with live data when the bundle has live sources (`Cache-Control: max-age`)." : "The answer."
                        )
                    ),
                    (
                        "content",
                        object([("application/json", object([("schema", object([("$ref", .string("#/components/schemas/Answer"))]))]))])
                    ),
                ])
            ),
            ("304", object([("description", .string("Not modified (`If-None-Match`)."))])),
            ("400", errorResponse("Bad input: an option the command does not take, a bad value, a limit past its bound.")),
            ("404", errorResponse("An unknown bundle, command, stop, trip or route.")),
            ("414", errorResponse("The path and query are over 8 KB.")),
            ("503", errorResponse("A damaged bundle.")),
        ])
    }

    private static func errorResponse(_ description: String) -> JSONValue {
        object([
            ("description", .string(description)),
            ("content", object([("application/json", object([("schema", object([("$ref", .string("#/components/schemas/Error"))]))]))])),
        ])
    }

    private static func textResponse(_ description: String, type: String) -> JSONValue {
        object([
            ("description", .string(description)),
            ("content", object([(type, object([("schema", object([("type", .string("string"))]))]))])),
        ])
    }

    private static func simpleGet(_ id: String, _ summary: String, parameters: [JSONValue] = [], type: String = "application/json")
        -> JSONValue
    {
        var operation: [(String, JSONValue)] = [("operationId", .string(id)), ("summary", .string(summary))]
        if !parameters.isEmpty { operation.append(("parameters", .array(parameters))) }
        let schema = type == "application/json" ? object([("type", .string("object"))]) : object([("type", .string("string"))])
        operation.append(
            (
                "responses",
                object([("200", object([("description", .string(summary)), ("content", object([(type, object([("schema", schema)]))]))]))])
            ))
        if id == "readyz" || id == "realtime" {
            operation[operation.count - 1] = (
                "responses",
                object([
                    ("200", object([("description", .string(summary)), ("content", object([(type, object([("schema", schema)]))]))])),
                    (
                        id == "readyz" ? "503" : "404",
                        object([("description", .string(id == "readyz" ? "Not ready; the reasons." : "No such bundle."))])
                    ),
                ])
            )
        }
        return object([("get", object(operation))])
    }
}
