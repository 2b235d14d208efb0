import TransitRuntime

/// A city from the bundle's catalogue. Lookups by id fill every field; searches,
/// nearest and filter queries fill the scalar fields and leave the lists empty.
/// `Codable` as `transit-query city --json` writes it (the catalogue's keys; an empty list
/// or a field without a value is left out).
///
/// ```swift
/// let preview = City(id: "lisbon", name: "Lisbon", country: "PT", lat: 38.7223, lon: -9.1393)
/// ```
public struct City: Sendable, Hashable, Codable, Identifiable {
    /// A place to visit in the city.
    public struct Attraction: Sendable, Hashable, Codable {
        /// The attraction's id in the catalogue, nil when none.
        public var id: String?
        /// The attraction's name.
        public var name: String
        /// A line about it.
        public var description: String?
        /// Latitude in degrees, when given.
        public var lat: Double?
        /// Longitude in degrees, when given.
        public var lon: Double?

        /// An attraction built by hand (previews, tests).
        public init(id: String? = nil, name: String, description: String? = nil, lat: Double? = nil, lon: Double? = nil) {
            self.id = id
            self.name = name
            self.description = description
            self.lat = lat
            self.lon = lon
        }

        private enum CodingKeys: String, CodingKey {
            case id, name, description, lat
            case lon = "lng"
        }
    }

    /// A picture of the city, as the catalogue lists it.
    public struct Image: Sendable, Hashable, Codable {
        /// The image's id in the catalogue, nil when none.
        public var id: String?
        /// Where the image is.
        public var url: String
        /// hero, gallery or attraction.
        public var type: String
        /// Pixels wide, when given.
        public var width: Int?
        /// Pixels high, when given.
        public var height: Int?
        /// Bytes, when given.
        public var size: Int?

        /// An image built by hand (previews, tests).
        public init(id: String? = nil, url: String, type: String, width: Int? = nil, height: Int? = nil, size: Int? = nil) {
            self.id = id
            self.url = url
            self.type = type
            self.width = width
            self.height = height
            self.size = size
        }
    }

    /// Another city of the catalogue the entry points to.
    public struct Related: Sendable, Hashable, Codable {
        /// The related city's id.
        public var id: String
        /// Its name.
        public var name: String

        /// A related city built by hand.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The city's id in the catalogue ("lisbon").
    public var id: String
    /// The city's name.
    public var name: String
    /// ISO 3166 alpha-2 country code.
    public var country: String
    /// The country's name, when given.
    public var countryName: String?
    /// Latitude in degrees.
    public var lat: Double
    /// Longitude in degrees.
    public var lon: Double
    /// IANA time zone, when given.
    public var timezone: String?
    /// Inhabitants, when given.
    public var population: Int?
    /// A line about the city.
    public var description: String?
    /// USD per month.
    public var costOfLiving: Double?
    /// Mbps.
    public var internetSpeed: Double?
    /// 0 to 5.
    public var safetyRating: Double?
    /// The climate in words, when given.
    public var climate: String?
    /// Other names (lookups by id only).
    public var alternateNames: [String] = []
    /// Its categories (lookups by id only).
    public var categories: [String] = []
    /// Places to visit (lookups by id only).
    public var attractions: [Attraction] = []
    /// Pictures (lookups by id only).
    public var images: [Image] = []
    /// Related cities (lookups by id only).
    public var relatedCities: [Related] = []
    /// Ids of the bundle's feeds that serve the city.
    public var feeds: [String] = []
    /// Great-circle metres from the query point, for nearest queries.
    public var distanceMetres: Double?

    /// Where the city is.
    public var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }

    /// A city built by hand (previews, tests).
    public init(
        id: String, name: String, country: String, countryName: String? = nil, lat: Double, lon: Double, timezone: String? = nil,
        population: Int? = nil, description: String? = nil, costOfLiving: Double? = nil, internetSpeed: Double? = nil,
        safetyRating: Double? = nil, climate: String? = nil, alternateNames: [String] = [], categories: [String] = [],
        attractions: [Attraction] = [], images: [Image] = [], relatedCities: [Related] = [], feeds: [String] = [],
        distanceMetres: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.country = country
        self.countryName = countryName
        self.lat = lat
        self.lon = lon
        self.timezone = timezone
        self.population = population
        self.description = description
        self.costOfLiving = costOfLiving
        self.internetSpeed = internetSpeed
        self.safetyRating = safetyRating
        self.climate = climate
        self.alternateNames = alternateNames
        self.categories = categories
        self.attractions = attractions
        self.images = images
        self.relatedCities = relatedCities
        self.feeds = feeds
        self.distanceMetres = distanceMetres
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, country
        case countryName = "country_name"
        case lat
        case lon = "lng"
        case timezone, population, description
        case costOfLiving = "cost_of_living"
        case internetSpeed = "internet_speed"
        case safetyRating = "safety_rating"
        case climate
        case alternateNames = "alternate_names"
        case categories, attractions, images
        case relatedCities = "related_cities"
        case feeds
        case distanceMetres = "distance_m"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
            country: try c.decode(String.self, forKey: .country), countryName: try c.decodeIfPresent(String.self, forKey: .countryName),
            lat: try c.decode(Double.self, forKey: .lat), lon: try c.decode(Double.self, forKey: .lon),
            timezone: try c.decodeIfPresent(String.self, forKey: .timezone),
            population: try c.decodeIfPresent(Int.self, forKey: .population),
            description: try c.decodeIfPresent(String.self, forKey: .description),
            costOfLiving: try c.decodeIfPresent(Double.self, forKey: .costOfLiving),
            internetSpeed: try c.decodeIfPresent(Double.self, forKey: .internetSpeed),
            safetyRating: try c.decodeIfPresent(Double.self, forKey: .safetyRating),
            climate: try c.decodeIfPresent(String.self, forKey: .climate),
            alternateNames: try c.decodeIfPresent([String].self, forKey: .alternateNames) ?? [],
            categories: try c.decodeIfPresent([String].self, forKey: .categories) ?? [],
            attractions: try c.decodeIfPresent([Attraction].self, forKey: .attractions) ?? [],
            images: try c.decodeIfPresent([Image].self, forKey: .images) ?? [],
            relatedCities: try c.decodeIfPresent([Related].self, forKey: .relatedCities) ?? [],
            feeds: try c.decodeIfPresent([String].self, forKey: .feeds) ?? [],
            distanceMetres: try c.decodeIfPresent(Double.self, forKey: .distanceMetres))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(country, forKey: .country)
        try c.encodeIfPresent(countryName, forKey: .countryName)
        try c.encode(lat, forKey: .lat)
        try c.encode(lon, forKey: .lon)
        try c.encodeIfPresent(timezone, forKey: .timezone)
        try c.encodeIfPresent(population, forKey: .population)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(costOfLiving, forKey: .costOfLiving)
        try c.encodeIfPresent(internetSpeed, forKey: .internetSpeed)
        try c.encodeIfPresent(safetyRating, forKey: .safetyRating)
        try c.encodeIfPresent(climate, forKey: .climate)
        if !alternateNames.isEmpty { try c.encode(alternateNames, forKey: .alternateNames) }
        if !categories.isEmpty { try c.encode(categories, forKey: .categories) }
        if !attractions.isEmpty { try c.encode(attractions, forKey: .attractions) }
        if !images.isEmpty { try c.encode(images, forKey: .images) }
        if !relatedCities.isEmpty { try c.encode(relatedCities, forKey: .relatedCities) }
        if !feeds.isEmpty { try c.encode(feeds, forKey: .feeds) }
        try c.encodeIfPresent(distanceMetres, forKey: .distanceMetres)
    }
}

/// Conditions a city must meet; nil means "any".
///
/// ```swift
/// let cheapFast = CityFilter(country: "PT", minInternetSpeed: 100, maxCostOfLiving: 2000)
/// ```
public struct CityFilter: Sendable, Hashable, Codable {
    /// Only cities of this country (ISO code).
    public var country: String?
    /// Only cities in this category.
    public var category: String?
    /// At least this internet speed (Mbps).
    public var minInternetSpeed: Double?
    /// At most this cost of living (USD).
    public var maxCostOfLiving: Double?
    /// At least this safety rating.
    public var minSafetyRating: Double?

    /// A filter; nil fields do not filter.
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
