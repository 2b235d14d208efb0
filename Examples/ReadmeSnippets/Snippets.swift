// swift-format-ignore-file
// Generated from README.md, docs/*.md and the DocC articles by `make snippets` (tools/readme_snippets.py). Do not edit.
import Foundation
import GTFSCompiler
import TransitCities
import TransitClient
import TransitRealtime
import TransitRuntime
import TransitServer
import TransitStore
import TransitSync

/// README.md, under "The libraries".
func readmeBlock1() throws {

    let bundle = try TransitBundle(path: "strasbourg.db")
    let info = try bundle.info()   // feeds, coverage, counts, content hash
    for d in try bundle.departures(from: "GARE_01", at: try QueryTime.parse("2026-03-30T08:00"), within: 3600, limit: 10) {
        print(d.departureTime, d.routeShortName ?? d.routeID, d.headsign, d.platformCode ?? "")
    }
    let trips = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: try QueryTime.parse("2026-03-30T08:00"))
    print(info.coverage, trips.first?.arrivalLocal as Any, trips.first?.fare?.amount as Any)  // fare: fares v2 or v1, when the feed has them
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
func readmeBlock4() async throws {

    let zurich = try TransitBundle(path: "zurich.db")
    let online = OnlineFirstDepartures(client: TransitClient(server: URL(string: "https://transit.example.org")!, bundle: "zurich", timeout: 1.5), bundle: zurich)
    let shown = try await online.departures(from: ["CENTRAL"], limit: 10)
    print(shown.source == .server ? "live from the server" : "offline: timetable", shown.departures.count)
    _ = (zurich, online, shown)
}

/// README.md, under "The libraries".
func readmeBlock5() async throws {

    let rider = try RiderData(directory: appSupport + "/transit", store: try BundleStore(directory: appSupport + "/transit"))
    await rider.connect(to: SyncServer(url: URL(string: "https://transit.example.org")!, token: riderToken))
    try await rider.save(SyncTarget(kind: .city, id: "strasbourg"))   // queues its bundle (auto_download_saved)
    _ = try await rider.addNote(about: SyncTarget(kind: .city, id: "strasbourg"), text: "Tram A to the station")
    print(try await rider.pendingCount(), "waiting")                   // the "Pending sync" indicator
    let report = try await rider.sync()                                // each action: SUCCESS, CONFLICT or FAILED
    print(report.actions.map(\.status), try await rider.conflicts().count)
    _ = (rider, report)
}

/// README.md, under "The libraries".
func readmeBlock6() throws {

    let world = try TransitBundle(path: "strasbourg.db")
    let lisbon = try world.cities(matching: "lisboa").first
    let nearby = try world.nearestCities(to: Coordinate(latitude: 48.58, longitude: 7.75), limit: 3)
    print(lisbon?.name ?? "-", nearby.count)
    _ = (world, lisbon, nearby)
}

/// docs/transit-server.md, under "The app's side".
func readmeBlock7() async throws {

    let installed = try TransitBundle(path: bundlePath)
    let client = TransitClient(server: URL(string: "https://transit.example.org")!, bundle: "zurich", timeout: 1.5)
    let source = OnlineFirstDepartures(client: client, bundle: installed)
    let board = try await source.departures(from: try await installed.stop("CENTRAL"))   // a Stop, a StopRef or ids
    if case .bundle(let reason) = board.source { banner.text = "Offline: \(reason)" }
    _ = (installed, client, source, board)
}

/// Sources/GTFSCompiler/GTFSCompiler.docc/CompilingBundlesInAPipeline.md, under "Compile".
func readmeBlock8() throws {

    let request = CompileRequest(feeds: [.init(name: "cts", path: "cts.zip")], outputPath: "strasbourg.db")
    let log = DiagnosticLog()
    do {
        let summary = try Compiler.compile(request, log: log)
        print(summary.trips, summary.patterns)
    } catch let failure as CompileFailure {
        print(failure.reason)      // nothing was written
    }
    _ = (request, log)
}

/// Sources/TransitCities/TransitCities.docc/TransitCities.md, under "Overview".
func readmeBlock9() throws {

    let bundle = try TransitBundle(path: "lisbon.db")
    let lisbon = try bundle.cities(matching: "lisboa").first          // by an alternate name
    let around = try bundle.nearestCities(to: Coordinate(latitude: 38.72, longitude: -9.14), limit: 3)
    let cheap = try bundle.cities(filter: CityFilter(country: "PT", maxCostOfLiving: 2000))
    _ = (bundle, lisbon, around, cheap)
}

/// Sources/TransitClient/TransitClient.docc/TransitClient.md, under "Overview".
func readmeBlock10() async throws {

    let offline = try TransitBundle(path: bundlePath)
    let client = TransitClient(server: URL(string: "https://transit.example.org")!, bundle: "zurich", timeout: 1.5)
    let board = try await OnlineFirstDepartures(client: client, bundle: offline).departures(from: ["CENTRAL"], limit: 8)
    switch board.source {
    case .server: banner.text = "Live"
    case .bundle(let reason): banner.text = "Offline (\(reason))"
    }
    _ = (offline, client, board)
}

/// Sources/TransitRealtime/TransitRealtime.docc/LiveDataOnTheDevice.md, under "Overview".
func readmeBlock11() throws {

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

/// Sources/TransitRealtime/TransitRealtime.docc/LiveDataOnTheDevice.md, under "Journeys on a snapshot".
func readmeBlock12() throws {

    let bart = try TransitBundle(path: "bart.db")
    let message = try RealtimeMessage(data: try Data(contentsOf: URL(fileURLWithPath: "trip-updates.pb")))
    let matched = try RealtimeSnapshot(messages: [message], bundle: bart)
    let trips = try bart.journeys(from: .stop("MONT"), to: .stop("DALY"), departingAt: .instant(Date()), realtime: matched)
    print(trips.first?.arrival ?? Date())
    _ = (bart, message, matched, trips)
}

/// Sources/TransitRealtime/TransitRealtime.docc/TransitRealtime.md, under "Overview".
func readmeBlock13() throws {

    let bundle = try TransitBundle(path: "bart.db")
    let message = try RealtimeMessage(data: fetchedBytes)
    let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle)
    let board = try bundle.departures(from: "MONT", at: .instant(Date()), realtime: snapshot)
    for call in board.departures { print(call.departure, call.state, call.delay ?? 0) }
    _ = (bundle, message, snapshot, board)
}

/// Sources/TransitRealtime/TransitRealtime.docc/TransitRealtime.md, under "Overview".
func readmeBlock14() async throws {
    let snapshot = try await RealtimeSnapshot(messages: [message], bundle: bundle)
    let live = try await bundle.departures(from: "MONT", realtime: snapshot)
    if case .stale(let age, _, _)? = live.notAppliedReason { banner.text = "Live times are \(Int(age / 60)) min old" }
    _ = (snapshot, live)
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Overview".
func readmeBlock15() throws {
    let bundle = try TransitBundle(path: "strasbourg.db")
    let here = Coordinate(latitude: 48.5734, longitude: 7.7521)
    let journeys = try bundle.journeys(from: .coordinate(here), to: .stop("HOPITAL"), departingAt: .instant(Date()))
    for journey in journeys {
        print(journey.departureLocal, journey.arrivalLocal, journey.rides)
    }
    _ = (bundle, here, journeys)
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Depart at, arrive by, a range".
func readmeBlock16() throws {

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
    _ = (home, arriving, range)
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Depart at, arrive by, a range".
func readmeBlock17() throws {
    let budget = JourneyOptions(rangeSearches: 4)
    let next = try bundle.journeyRange(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: try QueryTime.parse("2026-03-10T08:00"), within: 2 * 3600, options: budget)
    print(next.journeys.count, "journeys", next.isComplete ? "" : "leaving before \(next.endLocal)")
    _ = (budget, next)
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Live times".
func readmeBlock18() throws {

    let live = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: "trip-updates.pb")], bundle: bundle)
    let now = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: .instant(Date()), realtime: live)
    let byNine = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), arrivingBy: try QueryTime.parse("2026-03-10T09:00"), realtime: live)
    print(now.count, byNine.count)
    _ = (live, now, byNine)
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Fares".
func readmeBlock19() throws {
    for journey in try bundle.journeys(from: .stop("EMBR"), to: .stop("12TH"), departingAt: .instant(Date())) {
        if let fare = journey.fare {
            print(fare.amount.formatted(.currency(code: fare.currency)), fare.components.map(\.fareID))
        } else {
            print("no fare for this journey")
        }
    }
}

/// Sources/TransitRuntime/TransitRuntime.docc/PlanningJourneysOffline.md, under "Fares".
func readmeBlock20() throws {
    let journey = try bundle.journeys(from: .stop("EMBR"), to: .stop("12TH"), departingAt: .instant(Date()))[0]
    let senior = try bundle.fare(of: journey, options: FareOptions(riderCategoryID: "senior"))
    print(senior?.components.map { "\($0.productName ?? $0.fareID): \($0.amount)" } ?? [])
    _ = (journey, senior)
}

/// Sources/TransitRuntime/TransitRuntime.docc/ShowingDeparturesOffline.md, under "Open the bundle once".
func readmeBlock21() throws {
    let bundle = try TransitBundle(path: bundlePath)
    _ = bundle
}

/// Sources/TransitRuntime/TransitRuntime.docc/ShowingDeparturesOffline.md, under "Find the stop".
func readmeBlock22() throws {
    let hits = try bundle.stops(matching: "gare centr")
    let nearby = try bundle.nearestStops(to: Coordinate(latitude: 48.5839, longitude: 7.7455), count: 10)
    _ = (hits, nearby)
}

/// Sources/TransitRuntime/TransitRuntime.docc/ShowingDeparturesOffline.md, under "Show the board".
func readmeBlock23() async throws {
    let board = try await bundle.departures(from: "GARE_01", at: .instant(Date()), within: 60 * 60, limit: 20)
    for call in board {
        let style = Date.FormatStyle(date: .omitted, time: .shortened, timeZone: call.timeZone)
        print(call.departure.formatted(style), call.routeShortName ?? call.routeID, call.headsign, call.platformCode ?? "")
    }
    _ = board
}

/// Sources/TransitRuntime/TransitRuntime.docc/ShowingDeparturesOffline.md, under "Draw the line".
func readmeBlock24() throws {
    let line = try bundle.shape(trip: board[0].tripID)
    let points = line.points.map { ($0.latitude, $0.longitude) }
    _ = (line, points)
}

/// Sources/TransitRuntime/TransitRuntime.docc/TransitRuntime.md, under "Overview".
func readmeBlock25() throws {

    let bundle = try TransitBundle(path: "strasbourg.db")
    let board = try bundle.departures(from: "GARE_01", at: .instant(Date()), within: 60 * 60)
    for call in board { print(call.departureLocal, call.routeShortName ?? call.routeID, call.headsign) }
    _ = (bundle, board)
}

/// Sources/TransitRuntime/TransitRuntime.docc/UsingTheRuntime.md, under "Overview".
func readmeBlock26() throws {

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

/// Sources/TransitRuntime/TransitRuntime.docc/UsingTheRuntime.md, under "Names in the rider's language".
func readmeBlock27() throws {
    let geneva = try TransitBundle(path: "geneva.db", language: Locale.preferredLanguages.first)
    for d in try geneva.departures(from: "S1", at: .instant(Date()), within: 3600, limit: 5) {
        print(d.stopName, d.headsign)   // "Bahnhof Cornavin", "Flughafen" for a German reader
    }
    _ = geneva
}

/// Sources/TransitServer/TransitServer.docc/TransitServer.md, under "Overview".
func readmeBlock28() async throws {

    var configuration = ServerConfiguration()
    configuration.bundles = [.init(name: "metro", path: bundlePath)]
    configuration.port = 0
    let server = try await TransitServer(configuration: configuration)
    try await server.run { host, port in print("listening on http://\(host):\(port)") }
    _ = server
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Create the store".
func readmeBlock29() async throws {
    let store = try await BundleStore.open(directory: supportFolder + "/transit")
    _ = store
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Read the catalogue and download a city".
func readmeBlock30() async throws {
    try await store.refreshCatalogue(from: URL(string: "https://example.org/bundles/manifest.json")!)
    let job = try await store.download("lisbon", explicit: true)
    for await state in job.updates { print(state) }   // queued, downloading, verifying, installed
    _ = job
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "The saved-cities screen".
func readmeBlock31() async throws {
    var rows: [(name: String, availability: BundleOffer.Availability, bytes: Int)] = []
    for offer in try await store.offers() where offer.entry.isReadableByThisRuntime {
        rows.append((offer.entry.label ?? offer.id, offer.availability, Int(offer.entry.downloadBytes ?? offer.entry.bytes)))
    }
    Task {
        for await event in store.events() {
            // An update: the screen's open TransitBundle still reads the old version; reopen it.
            if case .updated(let id, _, _) = event, id == shownCity { showCity(try await store.open(id)) }
        }
    }
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Open a bundle".
func readmeBlock32() async throws {
    let lisbon = try await store.open("lisbon")        // a TransitBundle
    _ = lisbon
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Offline mode as a rider lives it".
func readmeBlock33() async throws {
    let keepInTouch = Task { await store.watchConnectivity() }
    for await event in store.events() {
        if case .connectivityChanged(let path) = event { offlineBadge.isHidden = path.isOnline }
    }
    keepInTouch.cancel()   // at exit: nothing of it outlives the app
    _ = keepInTouch
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Offline mode as a rider lives it".
func readmeBlock34() async throws {
    let batch = try await store.downloadAll()
    for await progress in batch.updates { bar.progress = progress.fraction }
    let hero = try await store.photos(of: "lisbon").first { $0.type == "hero" }?.localURL
    _ = (batch, hero)
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "Trust only your publisher's manifests".
func readmeBlock35() throws {
    let key = try ManifestPublicKey(contentsOf: Bundle.main.path(forResource: "manifest", ofType: "pub")!)
    let store = try BundleStore(directory: folder, trustedKeys: [key])
    _ = (key, store)
}

/// Sources/TransitStore/TransitStore.docc/KeepingCityBundlesOnTheDevice.md, under "The whole flow in one listing".
func readmeBlock36() async throws {

    let store = try await BundleStore.open(directory: appSupport + "/transit")  // repairs after a crash, off the caller
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

/// Sources/TransitSync/TransitSync.docc/SavedPlacesAndNotesOfflineFirst.md, under "Open the rider's data beside the store".
func readmeBlock37() async throws {

    let store = try BundleStore(directory: appSupport + "/transit")
    let rider = try RiderData(directory: appSupport + "/transit", store: store, name: "Anna's phone", type: "phone", appVersion: "2.1")
    await rider.connect(to: SyncServer(url: URL(string: "https://transit.example.org")!, token: riderToken))
    _ = (store, rider)
}

/// Sources/TransitSync/TransitSync.docc/SavedPlacesAndNotesOfflineFirst.md, under "Change things, with or without a network".
func readmeBlock38() async throws {

    let rider = try RiderData(directory: appSupport + "/transit")
    let strasbourg = SyncTarget(kind: .city, id: "strasbourg")
    try await rider.save(strasbourg)
    try await rider.save(SyncTarget(kind: .stop, id: "strasbourg/cts/GARE_01"))
    let note = try await rider.addNote(about: strasbourg, text: "Tram A to the station")
    try await rider.editNote(note.id, text: "Tram A or D to the station")
    var preferences = try await rider.preferences()
    preferences.staleWarningDays = 3
    try await rider.setPreferences(preferences)
    _ = (rider, strasbourg, note)
}

/// Sources/TransitSync/TransitSync.docc/SavedPlacesAndNotesOfflineFirst.md, under "Show where it stands".
func readmeBlock39() async throws {

    let rider = try RiderData(directory: appSupport + "/transit")
    statusLabel.text = "\(try await rider.pendingCount()) changes waiting"   // "Pending sync"
    for entry in try await rider.failed() { showAlert("Sync failed: \(entry.error ?? "") (Retry)") }
    for entry in try await rider.conflicts() {
        let kept = entry.winner?.fields["text"]?.value.text ?? "a change from another device"
        showAlert("Your \(entry.action.type.rawValue) lost to: \(kept)")
    }
    try await rider.retry()             // the failed ones back to PENDING
    try await rider.dismissConflicts()
    _ = rider
}

/// Sources/TransitSync/TransitSync.docc/SavedPlacesAndNotesOfflineFirst.md, under "Sync".
func readmeBlock40() async throws {

    let rider = try RiderData(directory: appSupport + "/transit")
    await rider.setNetworkAvailable(false)     // from the app's network monitor
    await rider.setNetworkAvailable(true)      // back: a sync starts by itself
    // or let the store's connectivity monitor say it (BundleStore.watchConnectivity runs beside):
    let follow = Task { await rider.followConnectivity() }
    do {
        let report = try await rider.sync()
        print(report.actions.map(\.status), report.pulled)
    } catch SyncError.unauthorised {
        showAlert("Sign in again")
    } catch {
        statusLabel.text = "\(error)"
    }
    for await event in await rider.events() {
        if case .syncFinished(let report) = event { statusLabel.text = "\(report.pending) waiting" }
    }
    _ = (rider, follow)
}
