/// feed_info.txt: the publisher, the feed's version and its declared validity.
enum FeedInfoFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let version = t.column("feed_version")
        let publisher = t.column("feed_publisher_name")
        let start = t.column("feed_start_date")
        let end = t.column("feed_end_date")
        guard try t.next() else { return }
        feed.feedVersion = t.text(version)
        feed.publisherName = t.text(publisher)
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
