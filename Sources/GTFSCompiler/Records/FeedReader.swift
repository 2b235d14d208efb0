/// Reads one feed's files, in dependency order, into `FeedData`.
enum FeedReader {
    /// Files the compiler reads; anything else in a feed is reported and ignored.
    static let knownFiles: Set<String> = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
        "calendar_dates.txt", "frequencies.txt", "feed_info.txt", "shapes.txt", "transfers.txt",
        "fare_attributes.txt", "fare_rules.txt", "attributions.txt", "translations.txt", "pathways.txt", "levels.txt",
        "fare_media.txt", "rider_categories.txt", "fare_products.txt", "areas.txt", "stop_areas.txt", "networks.txt",
        "route_networks.txt", "timeframes.txt", "fare_leg_rules.txt", "fare_transfer_rules.txt",
    ]
    /// The files a trip needs to be kept (itself, its route, its service): when one is
    /// unavailable, rows naming unknown trips are not reported one by one.
    static let tripSources = ["trips.txt", "routes.txt", "calendar.txt", "calendar_dates.txt"]
    /// Files a feed may have that the compiler does not need.
    static let ignoredFiles: Set<String> = [
        "fare_leg_join_rules.txt", "location_groups.txt", "location_group_stops.txt", "booking_rules.txt",
    ]

    /// Reads every file of the feed. An error in one file (a missing file or column, broken
    /// CSV) is logged and that file treated as unavailable, and the other files are still
    /// read, so one run names every problem; the caller then refuses the feed.
    /// - Throws: `FatalDiagnostic` only when the feed cannot be opened at all.
    static func read(name: String, path: String, log: DiagnosticLog) throws -> FeedData {
        let source: FeedSource
        do {
            source = try openFeedSource(path: path)
        } catch let fatal as FatalDiagnostic {
            throw fatal.inFeed(name)
        }
        for var diagnostic in source.listingDiagnostics {
            diagnostic.feed = name
            log.add(diagnostic)
        }
        for file in source.fileNames.sorted() where !knownFiles.contains(file) {
            if ignoredFiles.contains(file) {
                log.add(Diagnostic(.unusedFile, feed: name, file: file, message: "standard GTFS file the compiler does not read; ignored"))
            } else {
                log.add(Diagnostic(.unknownFile, feed: name, file: file, message: "not a file defined by GTFS; ignored"))
            }
        }
        var unavailable = Set<String>()
        for required in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"] where !source.fileNames.contains(required)
        {
            log.add(Diagnostic(.missingFile, feed: name, file: required, message: "required file is missing"))
            unavailable.insert(required)
        }
        if !source.fileNames.contains("calendar.txt") && !source.fileNames.contains("calendar_dates.txt") {
            log.add(
                Diagnostic(
                    .missingFile, feed: name, file: "calendar.txt",
                    message: "a feed needs calendar.txt or calendar_dates.txt; it has neither"))
            unavailable.formUnion(["calendar.txt", "calendar_dates.txt"])
        }
        let feed = FeedData(name: name)
        /// Opens and reads one file; its error is logged and the file marked unavailable.
        func read(_ file: String, required: [String], _ reader: (CSVTable, FeedData) throws -> Void) {
            do {
                guard
                    let table = try CSVTable(
                        file, in: source, feed: name, log: log, required: required,
                        unavailableFiles: unavailable)
                else { return }
                try reader(table, feed)
            } catch let fatal as FatalDiagnostic {
                log.add(fatal.inFeed(name).diagnostic)
                unavailable.insert(file)
            } catch {
                log.add(Diagnostic(.unreadableInput, feed: name, file: file, message: "cannot read: \(error)"))
                unavailable.insert(file)
            }
        }
        read("agency.txt", required: ["agency_name", "agency_timezone"], AgencyFile.read)
        read("stops.txt", required: ["stop_id"], StopsFile.read)
        read("routes.txt", required: ["route_id"], RoutesFile.read)
        read("calendar.txt", required: ["service_id", "start_date", "end_date"] + CalendarFile.weekdays, CalendarFile.read)
        read("calendar_dates.txt", required: ["service_id", "date", "exception_type"], CalendarDatesFile.read)
        read("trips.txt", required: ["route_id", "service_id", "trip_id"], TripsFile.read)
        read("stop_times.txt", required: ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"], StopTimesFile.read)
        read("frequencies.txt", required: ["trip_id", "start_time", "end_time", "headway_secs"], FrequenciesFile.read)
        read("feed_info.txt", required: [], FeedInfoFile.read)
        read("shapes.txt", required: ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"], ShapesFile.read)
        // No column is required: rows without the stops they need are dropped one by one.
        read("transfers.txt", required: [], TransfersFile.read)
        // Optional files whose missing column drops the file (one warning), not the feed.
        read("fare_attributes.txt", required: [], FareAttributesFile.read)
        read("fare_rules.txt", required: [], FareRulesFile.read)
        read("attributions.txt", required: [], AttributionsFile.read)
        read("translations.txt", required: [], TranslationsFile.read)
        read("pathways.txt", required: [], PathwaysFile.read)
        read("levels.txt", required: [], LevelsFile.read)
        // GTFS fares v2, each file after the ones it refers to.
        read("fare_media.txt", required: [], FareMediaFile.read)
        read("rider_categories.txt", required: [], RiderCategoriesFile.read)
        read("fare_products.txt", required: [], FareProductsFile.read)
        read("areas.txt", required: [], AreasFile.read)
        read("stop_areas.txt", required: [], StopAreasFile.read)
        read("networks.txt", required: [], NetworksFile.read)
        read("route_networks.txt", required: [], RouteNetworksFile.read)
        read("timeframes.txt", required: [], TimeframesFile.read)
        read("fare_leg_rules.txt", required: [], FareLegRulesFile.read)
        read("fare_transfer_rules.txt", required: [], FareTransferRulesFile.read)
        // The fingerprint is computed on the second core while patterns are built and the
        // bundle is written (both single-threaded), not while the files are parsed. It opens
        // the input anew, so nothing is shared with this thread.
        feed.sha256Result = BackgroundResult { try openFeedSource(path: path).sha256() }
        return feed
    }
}
