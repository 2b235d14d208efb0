// swift-format-ignore-file
// Generated from README.md and docs/*.md by `make snippets` (tools/readme_snippets.py). Do not edit.
import Foundation
import TransitCities
import TransitRealtime
import TransitRuntime
import TransitStore

/// README.md, under "The libraries".
func readmeBlock1() throws {

    let bundle = try TransitBundle(path: "strasbourg.db")
    let info = try bundle.info()   // feeds, coverage, counts, content hash
    for d in try bundle.departures(from: "GARE_01", at: try QueryTime.parse("2026-03-30T08:00"), within: 3600, limit: 10) {
        print(d.departureTime, d.routeShortName ?? d.routeID, d.headsign, d.platformCode ?? "")
    }
    let trips = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: try QueryTime.parse("2026-03-30T08:00"))
    print(info.coverage, trips.first?.arrivalLocal as Any)
    _ = (bundle, info, trips)
}

/// README.md, under "The libraries".
func readmeBlock2() throws {

    let timetable = try TransitBundle(path: "bart.db")
    let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: "trip-updates.pb")], bundle: timetable)
    for call in try timetable.departures(from: "MONT", at: .instant(Date()), realtime: snapshot).departures {
        print(call.departure, call.scheduled.headsign, call.state, call.delay ?? 0)
    }
    _ = (timetable, snapshot)
}

/// README.md, under "The libraries".
func readmeBlock3() async throws {

    let key = try ManifestPublicKey(contentsOf: "publisher.key.pub")
    let store = try BundleStore(directory: "transit", trustedKeys: [key])
    _ = try await store.refreshCatalogue(from: URL(string: "https://example.org/manifest.json")!)
    for await state in try await store.download("strasbourg", explicit: true).updates { print(state.name) }
    let strasbourg = try await store.open("strasbourg")
    _ = (key, store, strasbourg)
}

/// README.md, under "The libraries".
func readmeBlock4() throws {

    let world = try TransitBundle(path: "strasbourg.db")
    let lisbon = try world.cities(matching: "lisboa").first
    let nearby = try world.nearestCities(to: Coordinate(latitude: 48.58, longitude: 7.75), limit: 3)
    print(lisbon?.name ?? "-", nearby.count)
    _ = (world, lisbon, nearby)
}

/// docs/journeys.md, under "Journeys: planning offline".
func readmeBlock5() throws {

    let bundle = try TransitBundle(path: "strasbourg.db")
    let home = Coordinate(latitude: 48.5734, longitude: 7.7521)
    var options = JourneyOptions()  // 4 transfers, 120 s to change, 1.2 m/s, 400 m between stops, 800 m to a point
    options.wheelchair = false
    // The Pareto set over (arrival, rides), earliest arrival first, each leaving as late as it can.
    for journey in try bundle.journeys(from: .coordinate(home), to: .stop("HOPITAL"), departingAt: .instant(Date()), options: options) {
        print(journey.departureLocal, "->", journey.arrivalLocal, journey.rides, "rides")
        for leg in journey.legs {
            // A ride's boarding and alighting are the boards' own `Departure` values.
            if let board = leg.boarding { print(" ", board.routeShortName ?? board.routeID, "to", board.headsign, "from", board.stopName) }
            else { print("  walk", Int(leg.distance ?? 0), "m") }
        }
    }
    // Arrive by 09:00 (latest departure first), and every journey leaving in the next 2 hours.
    let arriving = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), arrivingBy: try QueryTime.parse("2026-03-10T09:00"))
    let range = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: try QueryTime.parse("2026-03-10T08:00"), within: 2 * 3600)
    print(arriving.count, range.count)
    _ = (bundle, home, arriving, range)
}

/// docs/journeys.md, under "Journeys: planning offline".
func readmeBlock6() throws {

    let bundle = try TransitBundle(path: "strasbourg.db")
    let live = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: "trip-updates.pb")], bundle: bundle)
    let now = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: .instant(Date()), realtime: live)
    let byNine = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), arrivingBy: try QueryTime.parse("2026-03-10T09:00"), realtime: live)
    print(now.count, byNine.count)
    _ = (bundle, live, now, byNine)
}

/// docs/realtime.md, under "TransitRealtime: live data on the device".
func readmeBlock7() throws {

    let timetable = try TransitBundle(path: "bart.db")
    // One snapshot per fetch: decoded (protobuf, FULL_DATASET only), matched, never changed;
    // the next fetch builds the next one and the app swaps it in whole.
    let updates = try RealtimeMessage(data: try Data(contentsOf: URL(fileURLWithPath: "trip-updates.pb")))
    let snapshot = try RealtimeSnapshot(messages: [updates], bundle: timetable)
    print(snapshot.report.tripUpdatesMatched, "of", snapshot.report.tripUpdates, "trips matched")
    let live = try timetable.departures(from: "MONT", at: .instant(Date()), realtime: snapshot)
    for call in live.departures {
        // call.departure: the prediction, else the timetable; call.state: .scheduled, .updated,
        // .noData, .cancelled, .added, .duplicated; call.delay in seconds; call.vehicle; call.alerts.
        print(call.departure, call.scheduled.headsign, call.state, call.delay ?? 0)
    }
    if !live.realtimeApplied { print("live times not shown:", live.notApplied ?? "") }  // e.g. stale
    _ = (timetable, updates, snapshot, live)
}

/// docs/runtime.md, under "TransitRuntime (library)".
func readmeBlock8() throws {

    let bundle = try TransitBundle(path: "city.db")                 // read-only; checks the schema version

    // Departures in the next hour from a stop (a station gives its platforms' departures).
    let board = try bundle.departures(from: "GARE_01", at: try QueryTime.parse("2026-03-29T08:00"),
                                      within: 60 * 60, limit: 20)
    for d in board { print(d.departureTime, d.routeShortName ?? d.routeID, d.headsign, d.platformCode ?? "") }
    // Wall-clock values to format as the app likes: d.departureLocal.hour, .minute, .utcOffsetSeconds.
    let later = try bundle.departures(from: "GARE_01", at: .local(LocalDate("2026-03-29")!, secondsOfDay: 17 * 3600))
    let corner = try bundle.departures(from: ["1021", "1022"], at: .instant(Date()))  // several stops, merged by time
    let arriving = try bundle.arrivals(to: ["GARE_01"], at: .instant(Date()))        // terminus included
    // Each call also has stopSequence, arrival, dropOffType, timepoint, directionID, tripShortName,
    // agencyID/agencyName, bikesAllowed, tripStart (frequency instances) and stopsRemaining.

    let hits = try bundle.stops(matching: "hauptb")                      // prefix, case- and accent-insensitive
    let near = try bundle.stops(near: Coordinate(latitude: 48.5839, longitude: 7.7455), within: 300)
    let trip = try bundle.trip("T4_WK_0800", on: ServiceDate("2026-03-30")!)
    let line = try bundle.shape(trip: "T4_WK_0800")                  // Shape: points [Coordinate] (shapes.txt, else through the stops)
    let lines = try bundle.shapes(route: "T4")                       // each distinct line of a route
    let agencies = try bundle.agencies()                              // [Agency]
    let atStop = try bundle.routes(servingStop: "CENTRAL")            // [Route]; also routes(feed:agency:)
    let t4 = try bundle.route("T4")                                   // RouteDetails: stops in order per direction
    let closest = try bundle.nearestStops(to: Coordinate(latitude: 47.37, longitude: 8.54), count: 10)
    let within = try bundle.stops(near: Coordinate(latitude: 47.37, longitude: 8.54), within: 300)  // every stop within 300 m
    let cityHere = try bundle.nearestCities(to: Coordinate(latitude: 47.37, longitude: 8.54), limit: 1)
    let changes = try bundle.transfers(at: "CENTRAL")                 // [Transfer] from transfers.txt
    let info = try bundle.info()
    try bundle.preload()                                             // optional: servers and batch jobs (~30 ms per 500k stop_times)

    let lisbon = try bundle.cities(matching: "lisboa").first             // finds Lisbon by an alternate name
    let nearest = try bundle.nearestCities(to: Coordinate(latitude: 48.8566, longitude: 2.3522), limit: 3)
    let cheap = try bundle.cities(filter: CityFilter(country: "PT", minInternetSpeed: 100, maxCostOfLiving: 2000))
    let stopsNearCity = try bundle.stops(near: Coordinate(latitude: lisbon!.lat, longitude: lisbon!.lon), within: 1000)  // city -> transit

    // A new version from a downloaded patch: checked, applied to a copy, verified, renamed into place.
    let newHash = try BundleUpdate.apply(patch: "cts-1-2.patch", to: "city.db")  // throws .patchRefused(reason)
    _ = (bundle, board, later, corner, arriving, hits, near, trip, line, lines, agencies, atStop, t4, closest, within, cityHere, changes, info, lisbon, nearest, cheap, stopsNearCity, newHash)
}

/// docs/store.md, under "From an app".
func readmeBlock9() async throws {

    let store = try BundleStore(directory: appSupport + "/transit")   // start-up also repairs after a crash
    _ = try await store.resumePendingJobs()                            // jobs an earlier launch left unfinished

    // Catalogue: the last good manifest is kept; a failed fetch leaves it in place.
    let catalogue = try await store.refreshCatalogue(from: URL(string: "https://example.org/bundles/manifest.json")!)
    for city in catalogue.bundles { print(city.id, city.bytes, city.coverage.lastServiceDate?.description ?? "-") }

    // Download a city the user asked for, with progress.
    let job = try await store.download("lisbon", explicit: true)      // explicit: never evicted automatically
    for await state in job.updates {
        switch state {
        case .downloading(let done, let total): progressView.progress = Double(done) / Double(total)
        case .failed(let error): showAlert(error.description)          // StoreError, e.g. hashMismatch, overBudget
        default: statusLabel.text = state.name                         // queued, verifying, installing, done, paused
        }
    }
    let lisbon = try await store.open("lisbon")                       // a TransitBundle; records the access

    // Update everything the manifest has newer versions of (patches when listed and smaller).
    for update in try await store.updateAll() { await update.finished() }

    // A storage budget: cached bundles (viewed, not saved) go least recently accessed first.
    try await store.setPreferences(StorePreferences(maxBytes: 200_000_000, autoUpdate: true, staleDays: 7))
    for city in try await store.status() where city.isExpired || city.isStale { print(city.id, "needs an update") }
    // InstalledBundle: downloadedAt and lastAccessedAt are Dates, the coverage ServiceDates;
    // the manifest's coverage (Catalogue.Coverage) is ServiceDates too. Errors are StoreError,
    // a LocalizedError with text an app shows (errorDescription, recoverySuggestion).
    try await store.remove("chiang-mai")                               // bytes freed now; open readers keep their file
    _ = (store, catalogue, job, lisbon)
}
