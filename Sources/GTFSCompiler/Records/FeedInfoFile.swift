/// feed_info.txt: the publisher and the feed's version.
enum FeedInfoFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let version = t.column("feed_version"), publisher = t.column("feed_publisher_name")
        if try t.next() {
            feed.feedVersion = t.text(version)
            feed.publisherName = t.text(publisher)
        }
    }
}
