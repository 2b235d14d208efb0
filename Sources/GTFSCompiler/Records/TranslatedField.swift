import BundleFormat

/// A field of translations.txt the bundle keeps, with the number it has in the bundle's
/// `translations.field` (trip and stop headsigns share the headsigns' number: both are
/// headsign texts).
enum TranslatedField: Sendable {
    case stopName, routeShortName, routeLongName, tripHeadsign, stopHeadsign, agencyName

    init?(table: String, field: String) {
        switch (table, field) {
        case ("stops", "stop_name"): self = .stopName
        case ("routes", "route_short_name"): self = .routeShortName
        case ("routes", "route_long_name"): self = .routeLongName
        case ("trips", "trip_headsign"): self = .tripHeadsign
        case ("stop_times", "stop_headsign"): self = .stopHeadsign
        case ("agency", "agency_name"): self = .agencyName
        default: return nil
        }
    }

    /// The file whose records record_id names.
    var file: String {
        switch self {
        case .stopName: return "stops.txt"
        case .routeShortName, .routeLongName: return "routes.txt"
        case .tripHeadsign, .stopHeadsign: return "trips.txt"
        case .agencyName: return "agency.txt"
        }
    }

    /// `translations.field` in the bundle (`BundleFormat.TranslationField`).
    var bundleField: TranslationField {
        switch self {
        case .stopName: return .stopName
        case .routeShortName: return .routeShortName
        case .routeLongName: return .routeLongName
        case .tripHeadsign, .stopHeadsign: return .headsign
        case .agencyName: return .agencyName
        }
    }
}
