/// Reads one feed's files, in dependency order, into `FeedData`.
enum FeedReader {
    /// Files the compiler reads; anything else in a feed is reported and ignored.
    static let knownFiles: Set<String> = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
        "calendar_dates.txt", "frequencies.txt", "feed_info.txt",
    ]
    /// Files a feed may have that the compiler does not need.
    static let ignoredFiles: Set<String> = [
        "shapes.txt", "transfers.txt", "fare_attributes.txt", "fare_rules.txt", "pathways.txt", "levels.txt",
        "translations.txt", "attributions.txt", "fare_media.txt", "fare_products.txt", "fare_leg_rules.txt",
        "fare_transfer_rules.txt", "areas.txt", "stop_areas.txt", "networks.txt", "route_networks.txt",
        "timeframes.txt", "location_groups.txt", "location_group_stops.txt", "booking_rules.txt", "rider_categories.txt",
    ]

    static func read(name: String, path: String, log: DiagnosticLog) throws -> FeedData {
        let source: FeedSource
        do {
            source = try openFeedSource(path: path)
        } catch var diagnostic as Diagnostic {
            diagnostic.feed = name
            throw diagnostic
        }
        for var diagnostic in source.listingDiagnostics {
            diagnostic.feed = name
            log.add(diagnostic)
        }
        for file in source.fileNames.sorted() where !knownFiles.contains(file) && !ignoredFiles.contains(file) {
            log.add(Diagnostic(.unknownFile, feed: name, file: file, message: "not a GTFS file the compiler reads; ignored"))
        }
        for required in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"] where !source.fileNames.contains(required) {
            throw Diagnostic(.missingFile, feed: name, file: required, message: "required file is missing")
        }
        if !source.fileNames.contains("calendar.txt") && !source.fileNames.contains("calendar_dates.txt") {
            throw Diagnostic(.missingFile, feed: name, file: "calendar.txt",
                             message: "a feed needs calendar.txt or calendar_dates.txt; it has neither")
        }
        let feed = FeedData(name: name)
        func table(_ file: String, _ required: [String]) throws -> CSVTable? {
            try CSVTable(file, in: source, feed: name, log: log, required: required)
        }
        if let t = try table("agency.txt", ["agency_name", "agency_timezone"]) { try AgencyFile.read(t, into: feed) }
        if let t = try table("stops.txt", ["stop_id"]) { try StopsFile.read(t, into: feed) }
        if let t = try table("routes.txt", ["route_id"]) { try RoutesFile.read(t, into: feed) }
        if let t = try table("calendar.txt", ["service_id", "start_date", "end_date"] + CalendarFile.weekdays) {
            try CalendarFile.read(t, into: feed)
        }
        if let t = try table("calendar_dates.txt", ["service_id", "date", "exception_type"]) { try CalendarDatesFile.read(t, into: feed) }
        if let t = try table("trips.txt", ["route_id", "service_id", "trip_id"]) { try TripsFile.read(t, into: feed) }
        if let t = try table("stop_times.txt", ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"]) {
            try StopTimesFile.read(t, into: feed)
        }
        if let t = try table("frequencies.txt", ["trip_id", "start_time", "end_time", "headway_secs"]) { try FrequenciesFile.read(t, into: feed) }
        if let t = try table("feed_info.txt", []) { try FeedInfoFile.read(t, into: feed) }
        // The fingerprint is computed on the second core while patterns are built and the
        // bundle is written (both single-threaded), not while the files are parsed.
        feed.sha256Result = BackgroundResult { try source.sha256() }
        return feed
    }
}
