import Foundation

/// Checks an `agency_timezone`: only IANA region names (`Europe/Paris`) are accepted, plus
/// `UTC`. Abbreviations (`PST`, `CET`) and fixed offsets (`GMT-8`, `Etc/GMT+8`) are refused,
/// even where Foundation would take them: they have no daylight saving, so a feed read in
/// them would be an hour off for half the year.
enum TimeZoneName {
    enum Verdict: Equatable {
        case valid(String)
        /// Accepted as the canonical name, which differs in case from what the feed wrote.
        case recased(String)
        case refused(String)
    }

    private static let regions: Set<String> = [
        "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific",
    ]

    /// Canonical names by their lower-case spelling.
    private static let byLowercase: [String: String] = {
        var names: [String: String] = [:]
        for name in TimeZone.knownTimeZoneIdentifiers where isRegionName(name) { names[name.lowercased()] = name }
        return names
    }()

    static func check(_ text: String) -> Verdict {
        if isRegionName(text) && TimeZone(identifier: text) != nil { return .valid(text) }
        if let canonical = byLowercase[text.lowercased()] { return .recased(canonical) }
        if text.isEmpty { return .refused("agency_timezone is empty") }
        if isRegionName(text) { return .refused("not a timezone of the IANA database") }
        return .refused(
            "an abbreviation or a fixed offset, not an IANA region name such as America/Los_Angeles (no daylight saving would be applied)")
    }

    private static func isRegionName(_ name: String) -> Bool {
        if name == "UTC" || name == "Etc/UTC" { return true }
        guard let slash = name.firstIndex(of: "/") else { return false }
        return regions.contains(String(name[..<slash])) && name.index(after: slash) < name.endIndex
    }
}
