import Foundation

/// agency.txt: who runs the service, and the feed's timezone.
enum AgencyFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("agency_id"), name = t.column("agency_name"), url = t.column("agency_url")
        let tz = t.column("agency_timezone"), lang = t.column("agency_lang"), phone = t.column("agency_phone")
        while try t.next() {
            let agencyID = t.text(id) ?? ""
            guard feed.agencyIDs.intern(agencyID) == Int32(feed.agencies.count) else {
                t.warn(.duplicateID, column: id, entity: agencyID, message: "agency_id defined twice; the first wins")
                continue
            }
            let zone = t.text(tz) ?? ""
            if TimeZone(identifier: zone) == nil {
                t.warn(.badTimezone, column: tz, entity: agencyID, message: "not an IANA timezone")
            } else if feed.timezone.isEmpty {
                feed.timezone = zone
            }
            feed.agencies.append(.init(agencyID: agencyID, name: t.text(name) ?? "", url: t.text(url), timezone: zone,
                                       lang: t.text(lang), phone: t.text(phone)))
        }
        guard !feed.agencies.isEmpty else {
            throw Diagnostic(.missingFile, feed: feed.name, file: t.fileName, message: "agency.txt has no agency")
        }
        guard !feed.timezone.isEmpty else {
            throw Diagnostic(.noTimezone, feed: feed.name, file: t.fileName, field: "agency_timezone",
                             message: "no agency has a valid IANA timezone, so no time in the feed can be placed")
        }
    }
}
