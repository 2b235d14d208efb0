import Foundation

/// A picture of a city as the store keeps it beside the city's bundle: where it came from,
/// where it is on the device once kept, and why not when it is not. `Codable` as
/// `transit-store photos ID --json` prints it.
///
/// ```swift
/// for photo in try await store.photos(of: "lisbon") where photo.type == "hero" {
///     if let file = photo.localURL { heroView.image = UIImage(contentsOfFile: file.path) }
/// }
/// ```
public struct CityPhoto: Sendable, Hashable, Codable, Identifiable {
    /// The catalogue's city id.
    public var cityID: String
    /// The image's id in the catalogue, nil when none.
    public var imageID: String?
    /// Where it is fetched from (as the catalogue lists it, resolved against the bundle's URL).
    public var url: String
    /// hero, gallery or attraction.
    public var type: String
    /// The kept file, nil until it is kept.
    public var localURL: URL?
    /// The kept file's bytes (0 when none).
    public var bytes: Int64
    /// Why it is not kept: the last attempt's failure (tried again at the next refresh), or
    /// the refusal (`isRefused`).
    public var failure: String?
    /// Not fetched again for this version of the bundle: too large for its listing, not an
    /// image, another size than listed, or not an http(s) URL.
    public var isRefused: Bool

    /// The URL: one photo per source.
    public var id: String { url }

    /// A photo built by hand (previews, tests).
    public init(
        cityID: String, imageID: String? = nil, url: String, type: String, localURL: URL? = nil, bytes: Int64 = 0,
        failure: String? = nil, isRefused: Bool = false
    ) {
        self.cityID = cityID
        self.imageID = imageID
        self.url = url
        self.type = type
        self.localURL = localURL
        self.bytes = bytes
        self.failure = failure
        self.isRefused = isRefused
    }

    private enum CodingKeys: String, CodingKey {
        case cityID = "city_id"
        case imageID = "image_id"
        case url, type
        case localURL = "file"
        case bytes, failure
        case isRefused = "refused"
    }
}
