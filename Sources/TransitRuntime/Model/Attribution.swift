/// An organisation an app credits for a feed's data (attributions.txt): the producer, the
/// operator or the authority, for the whole feed or one agency, route or trip.
///
/// ```swift
/// for feed in try bundle.info().feeds {
///     for credit in feed.attributions where credit.isProducer {
///         print("Data: \(credit.organizationName)", credit.url ?? "")
///     }
/// }
/// ```
public struct Attribution: Sendable, Hashable, Codable {
    /// organization_name.
    public var organizationName: String
    /// The organisation produced the data.
    public var isProducer: Bool
    /// The organisation runs the service.
    public var isOperator: Bool
    /// The organisation is the authority over the service.
    public var isAuthority: Bool
    /// The agency the credit is limited to (agency_id), nil for the whole feed.
    public var agencyID: String?
    /// The route the credit is limited to (route_id).
    public var routeID: String?
    /// The trip the credit is limited to (trip_id).
    public var tripID: String?
    /// attribution_url.
    public var url: String?
    /// attribution_email.
    public var email: String?
    /// attribution_phone.
    public var phone: String?

    /// An attribution built by hand (previews, tests).
    public init(
        organizationName: String, isProducer: Bool = false, isOperator: Bool = false, isAuthority: Bool = false,
        agencyID: String? = nil, routeID: String? = nil, tripID: String? = nil, url: String? = nil, email: String? = nil,
        phone: String? = nil
    ) {
        self.organizationName = organizationName
        self.isProducer = isProducer
        self.isOperator = isOperator
        self.isAuthority = isAuthority
        self.agencyID = agencyID
        self.routeID = routeID
        self.tripID = tripID
        self.url = url
        self.email = email
        self.phone = phone
    }

    private enum CodingKeys: String, CodingKey {
        case organizationName = "organization_name"
        case isProducer = "is_producer"
        case isOperator = "is_operator"
        case isAuthority = "is_authority"
        case agencyID = "agency_id"
        case routeID = "route_id"
        case tripID = "trip_id"
        case url, email, phone
    }
}
