/// Who pays and with what, for feeds whose fares are GTFS fares v2 (rider_categories.txt,
/// fare_media.txt): products for another rider category or medium are not used. The default
/// prices as the feed's default rider category (is_default_fare_category), on any medium.
/// Fares v1 have neither and ignore both.
///
/// ```swift
/// let senior = try bundle.fare(of: journey, options: FareOptions(riderCategoryID: "senior", fareMediaID: "clipper"))
/// ```
public struct FareOptions: Sendable, Hashable {
    /// A rider_categories.txt rider_category_id; nil: the feed's default category.
    public var riderCategoryID: String?
    /// A fare_media.txt fare_media_id; nil: the cheapest medium.
    public var fareMediaID: String?

    /// Options for a rider category and a fare medium (both optional).
    public init(riderCategoryID: String? = nil, fareMediaID: String? = nil) {
        self.riderCategoryID = riderCategoryID
        self.fareMediaID = fareMediaID
    }
}
