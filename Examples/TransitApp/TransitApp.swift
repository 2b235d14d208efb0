import Foundation
import TransitRealtime
import TransitRuntime
import TransitStore

/// A program shaped like an app's model layer, one type per screen: saved cities (offers,
/// a download with progress, store events, storage), a board with live delays, map data,
/// a planner (search as you type, a journey, its ride drawn, a long search cancelled) and a
/// route's timetable, the rider's saved cities with a note and the pending-sync count, and
/// offline mode (the badge, the city page's photos, the storage screen with "Clear all").
/// Every call is `async`: nothing here blocks the caller's actor.
///
///     transit-app-example MANIFEST_URL STORE_FOLDER CITY STOP DESTINATION YYYY-MM-DDTHH:MM [REALTIME.pb NOW]
///
/// `make test` builds it and runs it against a local download site (ExampleAppTests).
@main
struct TransitApp {
    static func main() async {
        let args = CommandLine.arguments
        guard args.count == 7 || args.count == 9, let manifest = URL(string: args[1]), let at = try? QueryTime.parse(args[6]) else {
            print("usage: transit-app-example MANIFEST_URL STORE_FOLDER CITY STOP DESTINATION YYYY-MM-DDTHH:MM [REALTIME.pb NOW]")
            exit(64)
        }
        do {
            let cities = try await SavedCitiesScreen(folder: args[2], manifest: manifest)
            let bundle = try await cities.install(args[3])
            var live: (RealtimeSnapshot, Date)?
            if args.count == 9 {
                let now = try QueryTime.parse(args[8])
                let instant = try bundle.instant(of: now)
                let message = try RealtimeMessage(contentsOf: args[7])
                live = (try await RealtimeSnapshot(messages: [message], bundle: bundle, now: instant), instant)
            }
            try await BoardScreen(bundle: bundle).show(stop: args[4], at: at, live: live)
            try await MapScreen(bundle: bundle).show(stop: args[4])
            try await PlannerScreen(bundle: bundle).plan(from: args[4], typing: args[5], at: at)
            try await TimetableScreen(bundle: bundle).show(stop: args[4], at: at)
            try await RiderDataScreen(folder: args[2], store: cities.store).show(saving: args[3], note: "Line 4 to the lake")
            await cities.close()
            try await OfflineScreen(store: cities.store).show(city: args[3])
        } catch let error as LocalizedError {
            // What an app would show in an alert.
            print("\(error.errorDescription ?? "Error") \(error.recoverySuggestion ?? "")")
            exit(1)
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
}

/// Times as a board shows them: the feed's wall clock, 24-hour, whatever the device's zone.
func clock(_ date: Date, in zone: TimeZone) -> String {
    var style = Date.FormatStyle(date: .omitted, time: .omitted).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
    style.timeZone = zone
    style.locale = Locale(identifier: "en_GB")
    return date.formatted(style)
}
