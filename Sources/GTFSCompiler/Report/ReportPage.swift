import BundleFormat
import Foundation

/// The `--report-html` page: one self-contained HTML file (inline CSS and SVG, no script, no
/// font or image from anywhere) a publisher opens, or shares, to see whether a feed is fit to
/// ship. Written from a `DiagnosticReport`'s values, the same ones `--report` writes as JSON:
/// the summary, the diagnostics by severity and code with their first samples, what was
/// dropped, the service calendar as a heat strip, the map of stops and shapes, and the
/// changes since `--base`.
///
/// ```swift
/// try ReportPage(report).write(to: "report.html")
/// ```
public struct ReportPage {
    let report: DiagnosticReport

    /// Samples shown per code.
    static let samplesPerCode = 5

    /// The page of `report`.
    public init(_ report: DiagnosticReport) { self.report = report }

    /// Writes the page to `path` (replacing it whole).
    public func write(to path: String) throws {
        try Data(html().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The whole page.
    public func html() -> String {
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(Self.style)</style></head><body><main>
            <h1>\(escape(title))</h1>

            """
        page += outcome()
        page += summary()
        page += diagnostics()
        page += dropped()
        if let facts = report.facts {
            page += calendar(facts.calendar)
            page += map(facts.map)
            if let changes = facts.changes { page += self.changes(changes) }
            if let problem = facts.baseProblem {
                page += "<section id=\"changes\"><h2>Changes since the base</h2><p class=\"bad\">\(escape(problem))</p></section>\n"
            }
        }
        page += "<footer>\(escape(report.tool)) \(escape(report.version))</footer></main></body></html>\n"
        return page
    }

    private var title: String {
        "Compile report: " + (report.feeds.map(\.feed).joined(separator: ", ").nonEmpty ?? report.output.path)
    }

    private func outcome() -> String {
        let verdict =
            report.succeeded
            ? (report.errors == 0 && report.warnings == 0 ? "Fit to ship: no error, no warning." : "Written, with warnings.")
            : "Not written: " + (report.failure ?? "the compile stopped") + "."
        let kind = report.succeeded ? (report.warnings == 0 ? "good" : "warn") : "bad"
        var html = "<section id=\"outcome\"><p class=\"verdict \(kind)\">\(escape(verdict))</p><ul class=\"counts\">"
        html += "<li><b id=\"errors\">\(report.errors)</b> errors</li><li><b id=\"warnings\">\(report.warnings)</b> warnings</li>"
        html += "<li><b id=\"infos\">\(report.infos)</b> notes</li></ul>"
        if report.output.written {
            html += "<p>Bundle <code>\(escape(report.output.path))</code>: \(number(report.output.bytes ?? 0)) bytes"
            if let sha = report.output.sha256 { html += ", SHA-256 <code class=\"hash\">\(escape(sha))</code>" }
            html += "</p>"
        }
        return html + "</section>\n"
    }

    private func summary() -> String {
        var html = "<section id=\"summary\"><h2>Summary</h2><div class=\"scroll\"><table><thead><tr>"
        html += "<th>feed</th><th>stops</th><th>routes</th><th>trips</th><th>stop times</th><th>coverage</th></tr></thead><tbody>"
        for feed in report.feeds {
            html += "<tr><td>\(escape(feed.feed))</td><td>\(number(feed.stops))</td><td>\(number(feed.routes))</td>"
            html += "<td>\(number(feed.trips))</td><td>\(number(feed.stopTimes))</td>"
            html += "<td>\(feed.firstDate?.description ?? "?") to \(feed.lastDate?.description ?? "?")</td></tr>"
        }
        html += "</tbody></table></div>"
        if let totals = report.totals {
            html += "<p>In all: \(number(totals.stops)) stops, \(number(totals.routes)) routes, \(number(totals.trips)) trips, "
            html += "\(number(totals.patterns)) patterns, \(number(totals.stopTimes)) stop times, \(number(totals.cities)) cities"
            html += String(format: "; compiled in %.2f s.", totals.seconds) + "</p>"
        }
        return html + "</section>\n"
    }

    private func diagnostics() -> String {
        var html = "<section id=\"diagnostics\"><h2>Diagnostics</h2>"
        guard !report.summary.isEmpty else { return html + "<p>None.</p></section>\n" }
        for severity in ["error", "warning", "info"] {
            let codes = report.summary.filter { $0.severity == severity }
            guard !codes.isEmpty else { continue }
            let name = severity == "info" ? "Notes" : severity.capitalized + "s"
            html += "<h3 class=\"\(severity)\">\(name)</h3>"
            for code in codes {
                html +=
                    "<details class=\"code \(severity)\" data-code=\"\(escape(code.code))\" data-count=\"\(code.count)\"\(severity == "error" ? " open" : "")>"
                html +=
                    "<summary><code>\(escape(code.code))</code> <b class=\"count\">\(number(code.count))</b> <span>\(escape(code.action))</span></summary>"
                let samples = report.diagnostics.filter { $0.code.rawValue == code.code }.prefix(Self.samplesPerCode)
                html +=
                    "<div class=\"scroll\"><table class=\"samples\"><thead><tr><th>where</th><th>field</th><th>value</th><th>message</th></tr></thead><tbody>"
                for sample in samples {
                    var place = [sample.feed, sample.file].compactMap { $0 }.joined(separator: "/")
                    if let line = sample.line { place += ":\(line)" }
                    html += "<tr class=\"sample\"><td>\(escape(place))</td><td>\(escape(sample.field ?? ""))</td>"
                    html +=
                        "<td><code>\(escape(String((sample.value ?? "").prefix(120))))</code></td><td>\(escape(sample.message))</td></tr>"
                }
                html += "</tbody></table></div>"
                if code.count > samples.count { html += "<p class=\"more\">and \(number(code.count - samples.count)) more</p>" }
                html += "</details>"
            }
        }
        return html + "</section>\n"
    }

    private func dropped() -> String {
        let codes = report.summary.filter { $0.action.contains("dropped") }
        var html = "<section id=\"dropped\"><h2>What was dropped</h2>"
        guard !codes.isEmpty else { return html + "<p>Nothing.</p></section>\n" }
        html += "<ul>"
        for code in codes {
            html +=
                "<li data-code=\"\(escape(code.code))\"><b>\(number(code.count))</b> × <code>\(escape(code.code))</code>: \(escape(code.action))</li>"
        }
        return html + "</ul></section>\n"
    }

    /// Weeks as columns, Monday at the top, each day shaded by its trips; days without a
    /// trip are outlined red, days where calendar_dates removes service carry a dot.
    private func calendar(_ calendar: ServiceCalendar) -> String {
        var html = "<section id=\"calendar\"><h2>Service calendar</h2>"
        guard let first = calendar.firstDate, !calendar.tripsPerDay.isEmpty else { return html + "<p>No day has service.</p></section>\n" }
        let removals = Set(calendar.removalDays)
        let most = max(1, calendar.tripsPerDay.max() ?? 1)
        let offset = first.civil.weekdayIndex
        let weeks = (offset + calendar.tripsPerDay.count + 6) / 7
        let cell = 12
        html += "<p>\(calendar.tripsPerDay.count) days from \(first), at most \(number(most)) trips a day; "
        html += "<span id=\"gap-count\">\(calendar.daysWithoutService)</span> days without service"
        html += calendar.removalDays.isEmpty ? ".</p>" : ", \(calendar.removalDays.count) with service removed by calendar_dates.</p>"
        html +=
            "<div class=\"scroll\"><svg class=\"heat\" role=\"img\" aria-label=\"Trips per day\" width=\"\(weeks * cell + 2)\" height=\"\(7 * cell + 2)\">"
        for (index, trips) in calendar.tripsPerDay.enumerated() {
            let date = ServiceDate(first.civil.adding(days: index))
            let slot = offset + index
            let x = slot / 7 * cell + 1
            let y = slot % 7 * cell + 1
            let level = trips == 0 ? 0 : 1 + (trips * 4 - 1) / most
            var classes = "day l\(level)"
            if trips == 0 { classes += " gap" }
            if removals.contains(date) { classes += " removed" }
            html +=
                "<rect class=\"\(classes)\" data-date=\"\(date)\" data-trips=\"\(trips)\" x=\"\(x)\" y=\"\(y)\" width=\"10\" height=\"10\">"
            html += "<title>\(date): \(trips) trips</title></rect>"
            if removals.contains(date) { html += "<circle cx=\"\(x + 5)\" cy=\"\(y + 5)\" r=\"2\" class=\"dot\"/>" }
        }
        html += "</svg></div>"
        if calendar.isCut { html += "<p>Only the first \(ServiceCalendar.maximumDays) days are shown.</p>" }
        return html + "</section>\n"
    }

    /// Stops as dots and each shape as a line, projected from the bounding box (longitudes
    /// scaled by the cosine of the middle latitude), on a 1,000-unit-wide drawing.
    private func map(_ map: NetworkMap) -> String {
        var html = "<section id=\"map\"><h2>Network</h2>"
        guard let bounds = map.bounds else { return html + "<p>Nothing to draw.</p></section>\n" }
        let (south, west, north, east) = (bounds[0], bounds[1], bounds[2], bounds[3])
        let scaleX = cos((south + north) / 2 * .pi / 180)
        let spanX = max((east - west) * scaleX, 1e-6)
        let spanY = max(north - south, 1e-6)
        let width = 1000.0
        let height = max(100, min(1500, (width * spanY / spanX).rounded()))
        let k = min(width / spanX, height / spanY)
        func point(_ p: [Double]) -> String {
            String(format: "%.1f %.1f", (p[1] - west) * scaleX * k, (north - p[0]) * k)
        }
        html += "<p>\(number(map.stopCount)) stops\(map.stops.count < map.stopCount ? " (\(number(map.stops.count)) drawn)" : ""), "
        html += "<span id=\"shape-count\">\(map.shapes.count)</span> shapes.</p>"
        html += "<svg class=\"map\" role=\"img\" aria-label=\"Stops and shapes\" viewBox=\"-5 -5 \(Int(width) + 10) \(Int(height) + 10)\">"
        for line in map.shapes where !line.points.isEmpty {
            let color = line.color.flatMap(Self.hexColor) ?? "#5b6b7a"
            let path = "M" + line.points.map(point).joined(separator: "L")
            html += "<path class=\"shape\" data-shape=\"\(escape(line.feed)):\(escape(line.shapeID))\" stroke=\"\(color)\" d=\"\(path)\"/>"
        }
        if !map.stops.isEmpty {
            html += "<path class=\"stops\" d=\"" + map.stops.map { "M" + point($0) + "h0" }.joined() + "\"/>"
        }
        return html + "</svg></section>\n"
    }

    private func changes(_ changes: VersionChanges) -> String {
        var html = "<section id=\"changes\"><h2>Changes since the base</h2><p>Against <code>\(escape(changes.base))</code>.</p>"
        html +=
            "<div class=\"scroll\"><table><thead><tr><th></th><th>added</th><th>removed</th><th>first added</th><th>first removed</th></tr></thead><tbody>"
        for (name, change) in [("stops", changes.stops), ("routes", changes.routes), ("trips", changes.trips)] {
            html += "<tr data-kind=\"\(name)\"><td>\(name)</td><td class=\"added\">\(number(change.added))</td>"
            html += "<td class=\"removed\">\(number(change.removed))</td>"
            html += "<td>\(escape(change.addedSamples.prefix(5).joined(separator: ", ")))</td>"
            html += "<td>\(escape(change.removedSamples.prefix(5).joined(separator: ", ")))</td></tr>"
        }
        html += "</tbody></table></div>"
        html += "<p><span id=\"days-changed\">\(changes.serviceDays.count)</span> days have another number of trips.</p>"
        if !changes.serviceDays.isEmpty {
            html += "<ul class=\"days\">"
            for day in changes.serviceDays.prefix(60) {
                html += "<li data-date=\"\(day.date)\">\(day.date): \(number(day.before)) → \(number(day.after)) trips</li>"
            }
            html += "</ul>"
            if changes.serviceDays.count > 60 { html += "<p class=\"more\">and \(changes.serviceDays.count - 60) more days</p>" }
        }
        return html + "</section>\n"
    }

    /// A route colour as CSS when it is six hex digits, nil otherwise (never raw text).
    static func hexColor(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.utf8.count == 6,
            digits.utf8.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) })
        else { return nil }
        // A colour too light to see on the page's background (white lines, say) is drawn grey.
        let value = Int(digits, radix: 16) ?? 0
        let (r, g, b) = (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
        guard (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.85 else { return nil }
        return "#" + digits.lowercased()
    }

    private func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(character)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// Text made safe for HTML (elements and attributes).
    func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if character.value < 0x20 && character != "\n" && character != "\t" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(character)
                }
            }
        }
        return out
    }

    static let style = """
        :root{color-scheme:light;--ink:#1b2430;--muted:#4a5663;--line:#d5dbe1;--bad:#b3261e;--warn:#8a5300;--good:#1e6b35}
        body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
        main{max-width:70rem;margin:0 auto;padding:1rem}
        h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line)}
        h3.error{color:var(--bad)}h3.warning{color:var(--warn)}
        .verdict{font-weight:600;padding:.5rem .75rem;border-radius:.3rem}.verdict.good{background:#e3f3e7;color:var(--good)}
        .verdict.warn{background:#fdf0d9;color:var(--warn)}.verdict.bad{background:#fbe4e2;color:var(--bad)}
        .counts{display:flex;gap:1.5rem;list-style:none;padding:0}.counts b{font-size:1.4rem}
        .scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}
        th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
        details.code{border:1px solid var(--line);border-radius:.3rem;margin:.4rem 0;padding:.3rem .6rem}
        details.code summary{cursor:pointer}details.code summary span{color:var(--muted)}
        code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere}
        .more,footer{color:var(--muted);font-size:.85rem}footer{margin-top:2rem}
        svg.heat rect.l0{fill:#f4f6f8;stroke:var(--bad);stroke-width:1.2}svg.heat rect.l1{fill:#c6e4f5}
        svg.heat rect.l2{fill:#7fbfe6}svg.heat rect.l3{fill:#3a8fc7}svg.heat rect.l4{fill:#155c91}
        svg.heat .dot{fill:#e8a600}
        svg.map{width:100%;height:auto;background:#f7f9fb;border:1px solid var(--line)}
        svg.map path.shape{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round;opacity:.85}
        svg.map path.stops{stroke:#1b2430;stroke-width:3;stroke-linecap:round;fill:none}
        .bad{color:var(--bad)}
        """
}

extension String {
    /// Nil for an empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
