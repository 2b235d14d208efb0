/// feed_info.txt: the publisher, the feed's version, languages, contacts and declared validity.
enum FeedInfoFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let version = t.column("feed_version")
        let publisher = t.column("feed_publisher_name")
        let start = t.column("feed_start_date")
        let end = t.column("feed_end_date")
        let columns = ["feed_publisher_url", "feed_lang", "default_lang", "feed_contact_email", "feed_contact_url"].map { t.column($0) }
        guard try t.next() else { return }
        feed.feedVersion = t.text(version)
        feed.info = .init(
            publisherName: t.text(publisher), publisherURL: t.text(columns[0]), lang: t.text(columns[1]),
            defaultLang: t.text(columns[2]), contactEmail: t.text(columns[3]), contactURL: t.text(columns[4]))
        feed.feedStartDate = date(t, start)
        feed.feedEndDate = date(t, end)
    }

    private static func date(_ t: CSVTable, _ column: Int) -> Int? {
        guard !t.isEmpty(column) else { return nil }
        if let value = FieldParser.date(t.bytes(column)) { return value }
        t.warn(.badDate, column: column, message: "not a YYYYMMDD date; ignored")
        return nil
    }
}
