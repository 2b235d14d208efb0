import BundleFormat

/// A stop named with its feed, as a value: what `Stop.id` and the command line write
/// ("feed/stop_id"), parsed back. A bundle of several feeds may use one stop_id in two of
/// them; a `StopRef` always names one stop.
///
/// ```swift
/// let ref = StopRef("cts/GARE_01")!          // or stop.ref, leg.toStop
/// let board = try bundle.departures(from: ref, at: .instant(Date()))
/// ```
public struct StopRef: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The feed's name in the bundle.
    public var feedID: String
    /// The stop_id in that feed.
    public var stopID: String

    /// The stop `stopID` of feed `feedID`.
    public init(feedID: String, stopID: String) {
        self.feedID = feedID
        self.stopID = stopID
    }

    /// Parses "feed/stop_id" (the feed's name ends at the first "/"; a stop_id may hold
    /// more); nil without a "/" or with an empty part.
    public init?(_ description: String) {
        guard let slash = description.firstIndex(of: "/") else { return nil }
        let feed = String(description[..<slash])
        let stop = String(description[description.index(after: slash)...])
        guard !feed.isEmpty, !stop.isEmpty else { return nil }
        self.init(feedID: feed, stopID: stop)
    }

    /// "feed/stop_id".
    public var description: String { "\(feedID)/\(stopID)" }

    /// Decoded from "feed/stop_id".
    public init(from decoder: Decoder) throws { self = try decoder.decodeText("feed/stop_id", StopRef.init) }

    /// Encoded as "feed/stop_id".
    public func encode(to encoder: Encoder) throws { try encoder.encodeText(description) }
}

extension Stop {
    /// The stop as a reference with its feed (`id` as a value).
    public var ref: StopRef { StopRef(feedID: feedID, stopID: stopID) }
}
