import Foundation
import TestKit
import TestSupport
import XCTest

/// The page `transit-server` serves at `/`, used as a person would in Debian's headless
/// chromium (WebDriver): typing three letters lists the stop, a click shows the board the
/// API answers, a planned journey shows the API's legs and draws its ride; no console error.
final class WebPageTests: XCTestCase {
    func testTheWebPageSearchesShowsABoardAndPlansAJourneyAsTheAPIAnswers() throws {
        guard Browser.executables != nil else { throw TestPaths.missing("chromium and chromium-driver (make deps installs them)") }
        let server = try ServerUnderTest(["--bundle", "demo=\(TestSupport.sampleBundlePath)", "--now", "2026-03-30T08:00:00+02:00"])
        defer { server.kill() }
        func api(_ target: String) throws -> Any {
            let answer = try XCTUnwrap(RawHTTP.get(port: server.port, target))
            XCTAssertEqual(answer.status, 200, target)
            return try JSONSerialization.jsonObject(with: answer.body)
        }
        let page = try XCTUnwrap(RawHTTP.get(port: server.port, "/"))
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("content-type"), "text/html; charset=utf-8")
        XCTAssertTrue(page.header("content-security-policy")?.contains("default-src 'self'") == true)
        let browser = try Browser(width: 1000, height: 1600)
        defer { browser.close() }
        try browser.open(URL(string: server.base + "/")!)
        XCTAssertTrue(try browser.wait(upTo: 20, until: "return document.body.dataset.ready === 'true'"), "the page started")

        // Three letters list the stop.
        try browser.type("Zür", into: "#stop-search")
        XCTAssertTrue(
            try browser.wait(upTo: 20, until: "return document.querySelector('#stop-results button[data-stop=CENTRAL]') !== null"))
        let listed =
            try browser.evaluate("return [...document.querySelectorAll('#stop-results button')].map(b => b.dataset.stop)") as? [String]
        let stops = try XCTUnwrap(try api("/v1/demo/stops?search=Z%C3%BCr&limit=10") as? [[String: Any]])
        XCTAssertEqual(listed, stops.compactMap { $0["stop_id"] as? String })

        // A click shows the board the API answers.
        try browser.click("#stop-results button[data-stop=CENTRAL]")
        XCTAssertTrue(try browser.wait(upTo: 20, until: "return document.querySelectorAll('#board-rows tr[data-trip]').length > 0"))
        let shownTrips =
            try browser.evaluate("return [...document.querySelectorAll('#board-rows tr')].map(r => r.dataset.trip)") as? [String]
        let board = try XCTUnwrap(try api("/v1/demo/departures?stop=CENTRAL&limit=15") as? [[String: Any]])
        XCTAssertEqual(shownTrips, board.compactMap { $0["trip_id"] as? String })
        let firstRow =
            try browser.evaluate("return [...document.querySelector('#board-rows tr').cells].map(c => c.textContent)") as? [String]
        XCTAssertEqual(firstRow?.first, (board.first?["departure_time"] as? String).map { String($0.dropFirst(11).prefix(5)) })

        // A journey: the API's legs, its fare, its ride drawn from the trip's shape.
        try browser.type("CENTRAL", into: "#plan-from")
        try browser.type("TIEFENBRUNNEN", into: "#plan-to")
        try browser.type("2026-03-30T08:00", into: "#plan-at")
        try browser.click("#plan-form button")
        XCTAssertTrue(try browser.wait(upTo: 20, until: "return document.querySelectorAll('#journeys li.journey').length > 0"))
        XCTAssertTrue(try browser.wait(upTo: 20, until: "return document.querySelectorAll('#journey-map path.ride').length > 0"))
        let plan = try XCTUnwrap(try api("/v1/demo/plan?from=CENTRAL&to=TIEFENBRUNNEN&at=2026-03-30T08:00") as? [String: Any])
        let journeys = try XCTUnwrap(plan["journeys"] as? [[String: Any]])
        let shown =
            try browser.evaluate(
                """
                return {journeys: document.querySelectorAll('#journeys li.journey').length,
                        legs: [...document.querySelectorAll('#journeys li.journey')[0].querySelectorAll('li.leg')].map(l => l.dataset.kind),
                        drawn: [...document.querySelectorAll('#journey-map path.ride')].map(p => p.dataset.trip),
                        fare: document.querySelector('#journeys .fare')?.textContent ?? ''};
                """) as? [String: Any]
        XCTAssertEqual(shown?["journeys"] as? Int, journeys.count)
        let legs = try XCTUnwrap(journeys.first?["legs"] as? [[String: Any]])
        XCTAssertEqual(shown?["legs"] as? [String], legs.compactMap { $0["kind"] as? String })
        XCTAssertEqual(
            shown?["drawn"] as? [String], legs.filter { $0["kind"] as? String == "ride" }.compactMap { $0["trip_id"] as? String })
        if let fare = journeys.first?["fare"] as? [String: Any], let currency = fare["currency"] as? String {
            XCTAssertTrue((shown?["fare"] as? String)?.contains(currency) == true, "\(shown ?? [:])")
        }

        // The catalogue.
        try browser.type("Lisb", into: "#city-search")
        XCTAssertTrue(try browser.wait(upTo: 20, until: "return document.querySelectorAll('#city-results li').length > 0"))
        let cities = try browser.evaluate("return [...document.querySelectorAll('#city-results li')].map(l => l.textContent)") as? [String]
        XCTAssertEqual(cities?.first?.hasPrefix("Lisbon, PT"), true, "\(cities ?? [])")

        let screenshot = (ProcessInfo.processInfo.environment["SCREENSHOTS"].map { URL(fileURLWithPath: $0) } ?? TemporaryFolders.make())
            .appendingPathComponent("web-page.png").path
        try browser.screenshot(to: screenshot)
        print("screenshot: \(screenshot)")
        let problems = try browser.consoleMessages().filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        XCTAssertTrue(problems.isEmpty, "console: \(problems)")

        // On a phone's width nothing runs off the side; every input has its label.
        let phone = try Browser(width: 390, height: 844)
        defer { phone.close() }
        try phone.open(URL(string: server.base + "/")!)
        XCTAssertTrue(try phone.wait(upTo: 20, until: "return document.body.dataset.ready === 'true'"))
        let fits = try phone.evaluate("return document.documentElement.scrollWidth <= window.innerWidth") as? Bool
        XCTAssertEqual(fits, true, "the page fits a 390-pixel-wide screen")
        let unlabelled =
            try phone.evaluate(
                "return [...document.querySelectorAll('input, select')].filter(i => i.labels.length === 0).map(i => i.id)") as? [String]
        XCTAssertEqual(unlabelled, [])
    }
}
