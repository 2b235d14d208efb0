import BundleFormat
import Foundation

/// When a departures query starts: an instant, or a wall-clock time in the stop's feed timezone.
///
/// ```swift
/// let at = try QueryTime.parse("2026-03-29T08:00")          // local to the feed
/// let utc = try QueryTime.parse("2026-03-29T06:00:00Z")     // an instant
/// ```
public enum QueryTime: Sendable, Equatable {
    case instant(Date)
    /// A wall-clock date and seconds since local midnight, read in the feed's timezone.
    case local(LocalDate, secondsOfDay: Int)

    /// Parses ISO 8601 `YYYY-MM-DDTHH:MM[:SS]`, optionally followed by `Z` or `±HH:MM`, or a
    /// date alone (`YYYY-MM-DD`: its local midnight).
    /// - Throws: `TransitError.badTime` when the text is not of that form.
    public static func parse(_ text: String) throws -> QueryTime {
        let fail = TransitError.badTime(text)
        let chars = Array(text.utf8)
        if chars.count == 10, let day = LocalDate(text) { return .local(day, secondsOfDay: 0) }
        guard chars.count >= 16, chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
            let date = LocalDate(String(decoding: chars[0..<10], as: UTF8.self))
        else { throw fail }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, chars[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: chars[range], as: UTF8.self))
        }
        guard let hour = number(11..<13), chars[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            hour < 24, minute < 60
        else { throw fail }
        var at = 16
        var second = 0
        if at < chars.count && chars[at] == UInt8(ascii: ":") {
            guard let s = number(17..<19), s < 60 else { throw fail }
            second = s
            at = 19
        }
        let seconds = hour * 3600 + minute * 60 + second
        if at == chars.count { return .local(date, secondsOfDay: seconds) }
        var offset = 0
        if chars[at] == UInt8(ascii: "Z") && at + 1 == chars.count {
            offset = 0
        } else if chars[at] == UInt8(ascii: "+") || chars[at] == UInt8(ascii: "-") {
            guard let oh = number((at + 1)..<(at + 3)), oh <= 18 else { throw fail }
            var om = 0
            if at + 3 < chars.count {
                let colon = chars[at + 3] == UInt8(ascii: ":") ? 1 : 0
                guard let m = number((at + 3 + colon)..<(at + 5 + colon)), at + 5 + colon == chars.count, m < 60 else { throw fail }
                om = m
            }
            offset = (oh * 3600 + om * 60) * (chars[at] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            throw fail
        }
        let epoch = date.civil.dayNumber * 86_400 + seconds - offset
        return .instant(Date(timeIntervalSince1970: TimeInterval(epoch)))
    }
}
