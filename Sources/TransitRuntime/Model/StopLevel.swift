/// The floor of a station a stop lies on (levels.txt), as a rider reads it on a sign.
///
/// ```swift
/// if let level = try bundle.stop("PF_A01_C").level {
///     print(level.name ?? "level \(level.index)")   // "Platform"
/// }
/// ```
public struct StopLevel: Sendable, Hashable, Codable {
    /// level_id.
    public var levelID: String
    /// level_index: 0 the street, negative below it, fractional between floors.
    public var index: Double
    /// level_name ("Mezzanine", "Platform"), nil when the feed gives none.
    public var name: String?

    /// A level built by hand (previews, tests).
    public init(levelID: String, index: Double, name: String? = nil) {
        self.levelID = levelID
        self.index = index
        self.name = name
    }

    private enum CodingKeys: String, CodingKey {
        case levelID = "level_id"
        case index = "level_index"
        case name = "level_name"
    }
}
