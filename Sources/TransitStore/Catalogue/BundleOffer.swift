import Foundation

/// A bundle the manifest offers, with where it stands on this device: what a saved-cities
/// screen lists. `Codable` as `transit-store list --json` prints it: the manifest entry's
/// keys plus `availability` and `pinned`.
///
/// ```swift
/// for offer in try await store.offers() where offer.entry.isReadableByThisRuntime {
///     print(offer.entry.label ?? offer.id, offer.availability == .updateAvailable ? "update" : "")
/// }
/// ```
public struct BundleOffer: Sendable, Hashable, Codable, Identifiable {
    /// Where an offered bundle stands on this device.
    public enum Availability: String, Sendable, Hashable, Codable {
        /// Not installed.
        case available
        /// Installed, the version the manifest lists.
        case installed
        /// Installed, and the manifest lists another version (`BundleStore.update(_:)`).
        case updateAvailable = "update_available"
    }

    /// The manifest's entry.
    public let entry: Catalogue.Entry
    /// Whether it is installed, and in the version offered.
    public let availability: Availability
    /// Installed because the user asked (pinned: never evicted by the storage budget).
    public let isPinned: Bool

    /// The bundle's id.
    public var id: String { entry.id }

    /// An offer built by hand (previews, tests).
    public init(entry: Catalogue.Entry, availability: Availability, isPinned: Bool = false) {
        self.entry = entry
        self.availability = availability
        self.isPinned = isPinned
    }

    private enum CodingKeys: String, CodingKey {
        case availability
        case isPinned = "pinned"
    }

    public init(from decoder: Decoder) throws {
        entry = try Catalogue.Entry(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        availability = try c.decode(Availability.self, forKey: .availability)
        isPinned = try c.decodeIfPresent(Bool.self, forKey: .isPinned) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        try entry.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(availability, forKey: .availability)
        try c.encode(isPinned, forKey: .isPinned)
    }
}
