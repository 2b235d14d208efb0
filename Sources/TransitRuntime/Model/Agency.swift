/// An agency of a feed (agency.txt).
///
/// ```swift
/// for agency in try bundle.agencies() { print(agency.name, agency.url ?? "") }
/// ```
public struct Agency: Hashable, Codable, Sendable, Identifiable {
    /// The feed the agency belongs to.
    public var feedID: String
    /// agency_id; empty when the feed has one agency and leaves it out.
    public var agencyID: String
    /// agency_name.
    public var name: String
    /// agency_url, nil when not given.
    public var url: String?
    /// The IANA timezone name.
    public var timezone: String
    /// agency_lang, nil when not given.
    public var language: String?
    /// agency_phone, nil when not given.
    public var phone: String?

    /// The feed and the agency_id.
    public var id: String { "\(feedID)/\(agencyID)" }

    /// An agency built by hand (previews, tests).
    public init(
        feedID: String, agencyID: String, name: String, url: String? = nil, timezone: String, language: String? = nil,
        phone: String? = nil
    ) {
        self.feedID = feedID
        self.agencyID = agencyID
        self.name = name
        self.url = url
        self.timezone = timezone
        self.language = language
        self.phone = phone
    }

    /// The keys of `transit-query`'s JSON.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case agencyID = "agency_id"
        case name = "agency_name"
        case url = "agency_url"
        case timezone = "agency_timezone"
        case language = "agency_lang"
        case phone = "agency_phone"
    }
}
