/// A city from the bundle's catalogue. Lookups by id fill every field; searches,
/// nearest and filter queries fill the scalar fields and leave the lists empty.
public struct City: Sendable, Equatable {
    public struct Attraction: Sendable, Equatable {
        public var id: String?
        public var name: String
        public var description: String?
        public var lat: Double?
        public var lon: Double?
    }

    public struct Image: Sendable, Equatable {
        public var id: String?
        public var url: String
        /// hero, gallery or attraction.
        public var type: String
        public var width: Int?
        public var height: Int?
        public var size: Int?
    }

    public struct Related: Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public var id: String
    public var name: String
    public var country: String
    public var countryName: String?
    public var lat: Double
    public var lon: Double
    public var timezone: String?
    public var population: Int?
    public var description: String?
    /// USD per month.
    public var costOfLiving: Double?
    /// Mbps.
    public var internetSpeed: Double?
    /// 0 to 5.
    public var safetyRating: Double?
    public var climate: String?
    public var alternateNames: [String] = []
    public var categories: [String] = []
    public var attractions: [Attraction] = []
    public var images: [Image] = []
    public var relatedCities: [Related] = []
    /// Ids of the bundle's feeds that serve the city.
    public var feeds: [String] = []
    /// Great-circle metres from the query point, for nearest queries.
    public var distanceMetres: Double?
}

/// Conditions a city must meet; nil means "any".
///
/// ```swift
/// let cheapFast = CityFilter(country: "PT", minInternetSpeed: 100, maxCostOfLiving: 2000)
/// ```
public struct CityFilter: Sendable, Equatable {
    public var country: String?
    public var category: String?
    public var minInternetSpeed: Double?
    public var maxCostOfLiving: Double?
    public var minSafetyRating: Double?

    public init(
        country: String? = nil, category: String? = nil, minInternetSpeed: Double? = nil,
        maxCostOfLiving: Double? = nil, minSafetyRating: Double? = nil
    ) {
        self.country = country
        self.category = category
        self.minInternetSpeed = minInternetSpeed
        self.maxCostOfLiving = maxCostOfLiving
        self.minSafetyRating = minSafetyRating
    }
}
