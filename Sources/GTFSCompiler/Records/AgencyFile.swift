/// agency.txt: who runs the service, and the feed's timezone.
enum AgencyFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("agency_id")
        let name = t.column("agency_name")
        let url = t.column("agency_url")
        let tz = t.column("agency_timezone")
        let lang = t.column("agency_lang")
        let phone = t.column("agency_phone")
        var timezoneAgency = ""
        while try t.next() {
            let agencyID = t.text(id) ?? ""
            guard feed.agencyIDs.intern(agencyID) == Int32(feed.agencies.count) else {
                t.warn(.duplicateID, column: id, entity: agencyID, message: "agency_id defined twice; the first wins")
                continue
            }
            let written = t.text(tz) ?? ""
            var zone = written
            switch TimeZoneName.check(zone) {
            case .valid:
                break
            case .recased(let canonical):
                t.warn(.badTimezone, column: tz, entity: agencyID, message: "timezone names are case-sensitive; read as \(canonical)")
                zone = canonical
            case .refused(let reason):
                t.warn(.badTimezone, column: tz, entity: agencyID, message: "\(reason); refused")
                zone = ""
            }
            if !zone.isEmpty {
                if feed.timezone.isEmpty {
                    feed.timezone = zone
                    timezoneAgency = agencyID
                } else if zone != feed.timezone {
                    t.warn(
                        .mixedTimezones, column: tz, entity: agencyID,
                        message:
                            "agency \"\(agencyID)\" names \(zone) but agency \"\(timezoneAgency)\" names \(feed.timezone); a feed has one timezone, so the feed is read in \(feed.timezone)"
                    )
                }
            }
            feed.agencies.append(
                .init(
                    agencyID: agencyID, name: t.text(name) ?? "", url: t.text(url), timezone: zone.isEmpty ? written : zone,
                    lang: t.text(lang), phone: t.text(phone)))
        }
        guard !feed.agencies.isEmpty else {
            throw FatalDiagnostic(.missingFile, file: t.fileName, message: "agency.txt has no agency")
        }
        guard !feed.timezone.isEmpty else {
            throw FatalDiagnostic(
                .noTimezone, file: t.fileName, field: "agency_timezone",
                message: "no agency has a valid IANA timezone, so no time in the feed can be placed")
        }
    }
}
