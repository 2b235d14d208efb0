/// The network as the store sees it: reachable or not, and whether it costs the rider money
/// (cellular, a personal hotspot) or is held back (Low Data Mode). `Codable` as
/// `transit-store` prints it.
///
/// ```swift
/// monitor.report(NetworkPath(isOnline: true, isExpensive: true))   // the phone went to cellular
/// ```
public struct NetworkPath: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A request can reach the internet.
    public var isOnline: Bool
    /// The path costs money or is metered (cellular, a hotspot): with
    /// `StorePreferences.wifiOnly`, downloads wait for another one.
    public var isExpensive: Bool
    /// The system asks apps to use little data (Low Data Mode): counted as expensive.
    public var isConstrained: Bool

    /// A path: online or not, expensive or not, constrained or not.
    public init(isOnline: Bool, isExpensive: Bool = false, isConstrained: Bool = false) {
        self.isOnline = isOnline
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// Online on an unmetered network (what a store assumes until told otherwise).
    public static let online = NetworkPath(isOnline: true)
    /// No network.
    public static let offline = NetworkPath(isOnline: false)

    /// Downloads on it cost the rider (expensive or constrained).
    public var isMetered: Bool { isExpensive || isConstrained }

    /// "offline", "online", "online (expensive)", "online (constrained)".
    public var description: String {
        guard isOnline else { return "offline" }
        if isExpensive { return "online (expensive)" }
        return isConstrained ? "online (constrained)" : "online"
    }

    private enum CodingKeys: String, CodingKey {
        case isOnline = "online"
        case isExpensive = "expensive"
        case isConstrained = "constrained"
    }
}
