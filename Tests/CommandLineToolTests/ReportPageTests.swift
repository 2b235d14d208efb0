import Foundation
import TestKit
import TestSupport
import XCTest

/// `gtfs-compile --report-html` as a publisher sees it: opened in Debian's headless chromium
/// (WebDriver), its numbers checked against the JSON report of the same run and against
/// independent readings of the feeds (Python's csv module); screenshots saved.
final class ReportPageTests: XCTestCase {
    private var browser: Browser!
    private let folder = TemporaryFolders.make()

    override func setUpWithError() throws {
        guard Browser.executables != nil else { throw TestPaths.missing("chromium and chromium-driver (make deps installs them)") }
        browser = try Browser()
    }

    override func tearDown() {
        browser?.close()
        browser = nil
    }

    @discardableResult
    private func compile(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("gtfs-compile")
        process.arguments = arguments + ["--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func json(_ path: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    /// Opens the page, checks that the console stayed clean, saves a screenshot.
    private func open(_ page: URL, _ name: String) throws {
        try browser.open(page)
        let screenshot = folder.appendingPathComponent(name + ".png").path
        try browser.screenshot(to: screenshot)
        print("screenshot: \(screenshot)")
        let problems = try browser.consoleMessages().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        XCTAssertTrue(problems.isEmpty, "console: \(problems)")
    }

    /// An independent reading: Python's csv module over a feed's file in its zip.
    private func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A feed with known problems: the page lists each code with the JSON report's count and
    /// its first samples (file, line, field, value, message), errors and warnings as counted.
    func testABrokenFeedsReportShowsItsCodesCountsAndSamples() throws {
        let feed = try TestPaths.requireShared("broken").appendingPathComponent("vtor-verybad.zip")
        let report = folder.appendingPathComponent("verybad.json")
        let page = folder.appendingPathComponent("verybad.html")
        XCTAssertEqual(
            try compile([
                feed.path, "-o", folder.appendingPathComponent("verybad.db").path, "--report", report.path, "--report-html", page.path,
            ]),
            1, "the feed has an error")
        let values = try json(report)
        try open(page, "report-verybad")
        let shown =
            try browser.evaluate(
                """
                const codes = {};
                for (const d of document.querySelectorAll('details.code')) {
                  codes[d.dataset.code] = {count: Number(d.dataset.count), text: d.querySelector('.count').textContent,
                    samples: [...d.querySelectorAll('tr.sample')].map(r => [...r.cells].map(c => c.textContent))};
                }
                return {codes, errors: document.getElementById('errors').textContent,
                        warnings: document.getElementById('warnings').textContent,
                        verdict: document.querySelector('.verdict').textContent};
                """) as? [String: Any]
        let codes = try XCTUnwrap(shown?["codes"] as? [String: [String: Any]])
        let summary = try XCTUnwrap(values["summary"] as? [[String: Any]])
        XCTAssertEqual(Set(codes.keys), Set(summary.compactMap { $0["code"] as? String }))
        XCTAssertTrue(codes.keys.contains("E_MISSING_COLUMN"))
        let diagnostics = try XCTUnwrap(values["diagnostics"] as? [[String: Any]])
        for entry in summary {
            let code = try XCTUnwrap(entry["code"] as? String)
            let count = try XCTUnwrap(entry["count"] as? Int)
            XCTAssertEqual(codes[code]?["count"] as? Int, count, code)
            XCTAssertEqual((codes[code]?["text"] as? String)?.replacingOccurrences(of: ",", with: ""), String(count), code)
            let kept = diagnostics.filter { $0["code"] as? String == code }
            let samples = try XCTUnwrap(codes[code]?["samples"] as? [[String]])
            XCTAssertEqual(samples.count, min(5, kept.count), code)
            if let first = kept.first, let row = samples.first {
                XCTAssertEqual(row[3], first["message"] as? String, code)
                if let line = first["line"] as? Int { XCTAssertTrue(row[0].hasSuffix(":\(line)"), "\(code): \(row[0])") }
                XCTAssertEqual(row[1], first["field"] as? String ?? "", code)
            }
        }
        XCTAssertEqual(shown?["errors"] as? String, String(values["errors"] as? Int ?? -1))
        XCTAssertEqual(shown?["warnings"] as? String, String(values["warnings"] as? Int ?? -1))
        XCTAssertTrue((shown?["verdict"] as? String)?.hasPrefix("Not written") == true)
        // A phone's width: the tables and the calendar scroll inside their boxes, the page does not.
        let phone = try Browser(width: 390, height: 844)
        defer { phone.close() }
        try phone.open(page)
        XCTAssertEqual(try phone.evaluate("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool, true)
    }

    /// The metro sample with Easter Monday removed and nothing in its place: the calendar
    /// shows that day as a gap (and as a holiday), the rest as the JSON report counts them.
    func testTheCalendarShowsAHolidayGap() throws {
        let feed = folder.appendingPathComponent("metro")
        try FileManager.default.copyItem(atPath: TestSupport.samples + "/metro", toPath: feed.path)
        try "service_id,date,exception_type\nWEEK,20260406,2\n".write(
            to: feed.appendingPathComponent("calendar_dates.txt"), atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("metro.json")
        let page = folder.appendingPathComponent("metro.html")
        XCTAssertEqual(
            try compile([
                feed.path, "-o", folder.appendingPathComponent("metro.db").path, "--report", report.path, "--report-html", page.path,
            ]), 0)
        let calendar = try XCTUnwrap((try json(report)["facts"] as? [String: Any])?["calendar"] as? [String: Any])
        try open(page, "report-calendar")
        let shown =
            try browser.evaluate(
                """
                const day = d => document.querySelector(`rect.day[data-date="${d}"]`);
                const easter = day('2026-04-06'), before = day('2026-04-03');
                return {gap: easter.classList.contains('gap'), removed: easter.classList.contains('removed'), trips: easter.dataset.trips,
                        before: before.dataset.trips, beforeGap: before.classList.contains('gap'),
                        days: document.querySelectorAll('rect.day').length, gaps: document.querySelectorAll('rect.gap').length,
                        shownGaps: document.getElementById('gap-count').textContent};
                """) as? [String: Any]
        XCTAssertEqual(shown?["gap"] as? Bool, true, "Easter Monday has no trip")
        XCTAssertEqual(shown?["removed"] as? Bool, true, "and calendar_dates removed its service")
        XCTAssertEqual(shown?["trips"] as? String, "0")
        XCTAssertEqual(shown?["beforeGap"] as? Bool, false)
        // The metro sample runs 4 weekday trips of line 4 on ordinary weekdays (trips.txt, WEEK).
        let weekdayTrips = try python(
            """
            import csv, sys
            rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8-sig')))
            print(sum(1 for r in rows if r['service_id'] == 'WEEK'))
            """, [feed.appendingPathComponent("trips.txt").path])
        XCTAssertEqual(shown?["before"] as? String, weekdayTrips, "Good Friday: every WEEK trip")
        let perDay = try XCTUnwrap(calendar["trips_per_day"] as? [Int])
        XCTAssertEqual(shown?["days"] as? Int, perDay.count)
        XCTAssertEqual(shown?["gaps"] as? Int, perDay.filter { $0 == 0 }.count)
        XCTAssertEqual(shown?["shownGaps"] as? String, String(calendar["days_without_service"] as? Int ?? -1))
    }

    /// A feed with shapes (Caltrain 2016): the map draws one path per shape its trips follow,
    /// as many as the feed's trips.txt names (read by Python), each in its route's colour.
    func testTheMapDrawsOnePathPerShape() throws {
        let feed = try TestPaths.requireShared("feeds").appendingPathComponent("caltrain-2016.zip")
        let report = folder.appendingPathComponent("caltrain.json")
        let page = folder.appendingPathComponent("caltrain.html")
        XCTAssertEqual(
            try compile([
                feed.path, "-o", folder.appendingPathComponent("caltrain.db").path, "--report", report.path, "--report-html", page.path,
            ]), 0)
        let shapes = try python(
            """
            import csv, io, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            read = lambda n: list(csv.DictReader(io.TextIOWrapper(z.open(n), encoding='utf-8-sig')))
            have = {r['shape_id'] for r in read('shapes.txt')}
            print(len({r['shape_id'] for r in read('trips.txt') if r.get('shape_id') in have}))
            """, [feed.path])
        try open(page, "report-map")
        let drawn =
            try browser.evaluate(
                "return {paths: document.querySelectorAll('svg.map path.shape').length, ids: new Set([...document.querySelectorAll('svg.map path.shape')].map(p => p.dataset.shape)).size, shown: document.getElementById('shape-count').textContent, stops: document.querySelectorAll('svg.map path.stops').length}"
            ) as? [String: Any]
        XCTAssertEqual(String(drawn?["paths"] as? Int ?? -1), shapes)
        XCTAssertEqual(drawn?["ids"] as? Int, drawn?["paths"] as? Int, "one path per shape")
        XCTAssertEqual(drawn?["shown"] as? String, shapes)
        XCTAssertEqual(drawn?["stops"] as? Int, 1)
        let map = try XCTUnwrap((try json(report)["facts"] as? [String: Any])?["map"] as? [String: Any])
        XCTAssertEqual((map["shapes"] as? [Any])?.count, Int(shapes))
    }

    /// The next weekly version (`evolve_feed.py`) compiled with `--base`: the page lists the
    /// stops, routes and trips added and removed as the two feeds' files have them.
    func testTheBaseSectionListsTheNextVersionsChanges() throws {
        let shared = try TestPaths.requireShared("feeds")
        let old = shared.appendingPathComponent("caltrain-2016.zip")
        let new = folder.appendingPathComponent("caltrain-next.zip")
        let evolve = TestPaths.shared.appendingPathComponent("tools/evolve_feed.py")
        _ = try python(
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            [evolve.path, old.path, new.path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: new.path))
        let base = folder.appendingPathComponent("v1.db")
        XCTAssertEqual(try compile([old.path, "-o", base.path, "--id", "caltrain"]), 0)
        let report = folder.appendingPathComponent("next.json")
        let page = folder.appendingPathComponent("next.html")
        XCTAssertEqual(
            try compile([
                "caltrain-2016=" + new.path, "-o", folder.appendingPathComponent("v2.db").path, "--id", "caltrain", "--base", base.path,
                "--report", report.path, "--report-html", page.path,
            ]), 0)
        let expected = try python(
            """
            import csv, io, json, sys, zipfile
            def ids(path, name, column):
                z = zipfile.ZipFile(path)
                return {r[column] for r in csv.DictReader(io.TextIOWrapper(z.open(name), encoding='utf-8-sig'))}
            out = {}
            for kind, name, column in [('stops', 'stops.txt', 'stop_id'), ('routes', 'routes.txt', 'route_id'), ('trips', 'trips.txt', 'trip_id')]:
                a, b = ids(sys.argv[1], name, column), ids(sys.argv[2], name, column)
                out[kind] = [len(b - a), len(a - b)]
            print(json.dumps(out))
            """, [old.path, new.path])
        let sets = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [String: [Int]])
        try open(page, "report-changes")
        let shown =
            try browser.evaluate(
                """
                const out = {};
                for (const row of document.querySelectorAll('#changes tr[data-kind]')) {
                  out[row.dataset.kind] = [Number(row.querySelector('.added').textContent.replace(/,/g, '')),
                                           Number(row.querySelector('.removed').textContent.replace(/,/g, ''))];
                }
                out.days = Number(document.getElementById('days-changed').textContent);
                return out;
                """) as? [String: Any]
        for kind in ["stops", "routes", "trips"] {
            XCTAssertEqual(shown?[kind] as? [Int], sets[kind], kind)
        }
        let changes = try XCTUnwrap((try json(report)["facts"] as? [String: Any])?["changes"] as? [String: Any])
        XCTAssertEqual(shown?["days"] as? Int, (changes["service_days_changed"] as? [Any])?.count)
        XCTAssertGreaterThan(sets.values.map { $0[0] + $0[1] }.reduce(0, +), 0, "the next version changes something")
    }
}
