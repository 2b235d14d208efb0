/// The cities of a catalogue after checks, with final integer ids (cid in byte
/// order of the city id): the input of `CityTables`.
struct CityModel {
    struct Attraction {
        var id: String?
        var name: String
        var description: String?
        var lat: Double?
        var lng: Double?
    }

    struct Image {
        var id: String?
        var url: String
        var type: String
        var width: Int?
        var height: Int?
        var size: Int?
    }

    struct City {
        var cid = 0
        var id: String
        var name: String
        var country: String
        var countryName: String?
        var lat: Double
        var lng: Double
        var timezone: String?
        var population: Int?
        var alternateNames: [String] = []
        var description: String?
        var costOfLiving: Double?
        var internetSpeed: Double?
        var safetyRating: Double?
        var climate: String?
        var categories: [String] = []
        var attractions: [Attraction] = []
        var relatedIDs: [String] = []
        var relatedCids: [Int] = []
        var images: [Image] = []
        var feedIDs: [String] = []
        var fids: [Int] = []
        var index = 0
    }

    var cities: [City] = []
    /// Category names in byte order; cat = index + 1.
    var categories: [String] = []
}
