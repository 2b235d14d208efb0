import Foundation
import TransitRuntime

/// Times as the text tables show them.
enum ClockText {
    /// `HH:MM` on the wall clock.
    static func minutes(_ time: LocalDateTime) -> String { String(format: "%02d:%02d", time.hour, time.minute) }

    /// `HH:MM:SS` on the wall clock.
    static func seconds(_ time: LocalDateTime) -> String { String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second) }

    /// A GTFS time (seconds from noon minus 12 h; hours may pass 24) as `H:MM`.
    static func gtfs(_ seconds: Int) -> String { String(format: "%d:%02d", seconds / 3600, seconds / 60 % 60) }

    /// `+N` when `local` (YYYY-MM-DD) is N days after `service` (YYYY-MM-DD), else "".
    static func dayMark(_ local: String, after service: String) -> String {
        guard local != service, let a = dayNumber(local), let b = dayNumber(service), a > b else { return "" }
        return "+\(a - b)"
    }

    /// The UTC offset as `+02:00`.
    static func offset(_ time: LocalDateTime) -> String {
        let text = time.description
        return String(text.suffix(6))
    }

    /// For each time, whether its wall-clock time also occurs at another UTC offset among the
    /// times given (the hour that repeats when clocks go back): its wall time lies within the
    /// span of wall times shown at another offset.
    static func inRepeatedHour(_ times: [LocalDateTime]) -> [Bool] {
        func wall(_ t: LocalDateTime) -> String { String(t.description.prefix(19)) }
        var spans: [Int: (String, String)] = [:]
        for t in times {
            let w = wall(t)
            let span = spans[t.utcOffsetSeconds] ?? (w, w)
            spans[t.utcOffsetSeconds] = (min(span.0, w), max(span.1, w))
        }
        guard spans.count > 1 else { return times.map { _ in false } }
        return times.map { t in
            let w = wall(t)
            return spans.contains { offset, span in offset != t.utcOffsetSeconds && span.0 <= w && w <= span.1 }
        }
    }

    /// Days since 1970-01-01 of `YYYY-MM-DD` (proleptic Gregorian).
    private static func dayNumber(_ text: String) -> Int? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        let (y0, m, d) = (parts[0], parts[1], parts[2])
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
