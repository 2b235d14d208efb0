/// A transfer between two stops (transfers.txt): how riders change from one to the other.
///
/// ```swift
/// for t in try bundle.transfers(at: "CENTRAL") { print(t.toStopID, t.minTransferTime ?? 0) }
/// ```
public struct Transfer: Hashable, Codable, Sendable, Identifiable {
    /// The feed whose transfers.txt gives the row.
    public var feedID: String
    /// from_stop_id.
    public var fromStopID: String
    /// to_stop_id.
    public var toStopID: String
    /// transfer_type: recommended, timed (the vehicle waits), needs `minTransferTime`, not
    /// possible, in-seat not allowed.
    public var type: TransferType
    /// Seconds a rider needs to change, when the feed says.
    public var minTransferTime: Int?

    public var id: String { "\(feedID)/\(fromStopID)>\(toStopID)" }

    /// A transfer built by hand (previews, tests).
    public init(feedID: String, fromStopID: String, toStopID: String, type: TransferType, minTransferTime: Int? = nil) {
        self.feedID = feedID
        self.fromStopID = fromStopID
        self.toStopID = toStopID
        self.type = type
        self.minTransferTime = minTransferTime
    }

    /// The keys of `transit-query`'s JSON.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case fromStopID = "from_stop_id"
        case toStopID = "to_stop_id"
        case type = "transfer_type"
        case minTransferTime = "min_transfer_time"
    }
}
