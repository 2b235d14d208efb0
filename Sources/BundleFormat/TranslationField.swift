/// The names `translations.field` numbers: what a record number in `translations.record`
/// is (a sid, rid, hid or aid). Shared by the compiler that writes them and the runtime
/// that reads them.
package enum TranslationField: Int, Sendable {
    /// stops.name, by sid.
    case stopName = 1
    /// routes.short_name, by rid.
    case routeShortName = 2
    /// routes.long_name, by rid.
    case routeLongName = 3
    /// headsigns.text (trip and stop headsigns), by hid.
    case headsign = 4
    /// agencies.name, by aid.
    case agencyName = 5
}

/// BCP 47 language tags as translations.txt and apps write them: compared without case.
package enum LanguageTag {
    /// `tag` lowercased ("fr-CA" -> "fr-ca") when it has the form of a language tag: subtags
    /// of 1 to 8 letters or digits joined by hyphens, the first 2 to 8 letters; nil otherwise.
    package static func canonical(_ tag: String) -> String? {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        guard parts.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            return nil
        }
        return tag.lowercased()
    }

    /// The tags to look for, most specific first: "fr-ca" then "fr".
    package static func fallbacks(_ tag: String) -> [String] {
        guard let canonical = canonical(tag) else { return [] }
        var tags = [canonical]
        var parts = canonical.split(separator: "-")
        while parts.count > 1 {
            parts.removeLast()
            tags.append(parts.joined(separator: "-"))
        }
        return tags
    }
}
