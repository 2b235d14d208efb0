import ArgumentParser
import Foundation
import TransitRealtime
import TransitRuntime

/// What a command is given besides its options: the clock (`--at` defaults to it) and the
/// live data the server holds for the bundle. The command line reads `--realtime` files
/// instead, so its context has no live data.
public struct CommandContext: Sendable {
    /// The moment a query without `--at` asks about.
    public var now: Date
    /// A snapshot of live data and the moment it is judged at; departures, arrivals and plans
    /// apply it as `--realtime` files would be.
    public var live: (snapshot: RealtimeSnapshot, now: Date)?

    /// A context at `now`, with or without live data.
    ///
    /// ```swift
    /// let context = CommandContext(now: Date(), live: (snapshot, Date()))
    /// ```
    public init(now: Date, live: (snapshot: RealtimeSnapshot, now: Date)? = nil) {
        self.now = now
        self.live = live
    }
}

/// A command's answer before it is printed or sent: the value `--json` writes, the text the
/// command prints otherwise, and what else the command line reports.
public struct CommandReply {
    /// The `Codable` value `--json` prints (the server's body).
    public var value: any Encodable
    /// The table or lines printed without `--json`.
    var text: () throws -> String
    /// Why live times were not applied to a board (the command line writes it to stderr).
    public var realtimeNotApplied: String?
    /// False when the command found nothing to answer with (`fare` without a ride: exit 1, HTTP 404).
    public var found = true
    /// True when live data went into the answer.
    public var isLive = false

    init(value: any Encodable, text: @escaping () throws -> String) {
        self.value = value
        self.text = text
    }

    /// The value's JSON, as `--json` prints it (without the newline).
    /// - Throws: `TransitError.corruptBundle` when a number cannot be written as JSON.
    public func json() throws -> [UInt8] { try JSONOutput.encoded(AnyEncodable(value)) }
}

/// A subcommand that reads a bundle: its options make a reply from an open bundle. The
/// command line runs it (`run()`); the server asks the same reply for a request.
protocol BundleQuestion: ParsableCommand {
    var options: BundleOptions { get }
    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply
}

extension BundleQuestion {
    /// Opens the bundle, makes the reply, prints it as JSON or text; nothing found is exit 1.
    func run() throws {
        var found = true
        try reportingErrors(json: options.json) {
            let reply = try reply(from: try options.open(), context: CommandContext(now: Date()))
            if let note = reply.realtimeNotApplied {
                FileHandle.standardError.write(Data("transit-query: live times not applied: \(note)\n".utf8))
            }
            found = reply.found
            output(options.json ? String(decoding: try reply.json(), as: UTF8.self) : try reply.text())
        }
        if !found { throw ExitCode(1) }
    }
}

extension Answer {
    /// The answer as a reply: its `Codable` value and its text.
    var reply: CommandReply { CommandReply(value: value, text: { self.text }) }
}

/// Any `Encodable` as a concrete type, for the generic encoder.
struct AnyEncodable: Encodable {
    let wrapped: any Encodable
    init(_ wrapped: any Encodable) { self.wrapped = wrapped }
    func encode(to encoder: Encoder) throws { try wrapped.encode(to: encoder) }
}
