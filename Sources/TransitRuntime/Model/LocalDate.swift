import BundleFormat
import Foundation

/// A calendar date on a feed's wall clock: the same type as `ServiceDate` (one civil-date
/// type in the libraries), named for where a date is a wall-clock day rather than the
/// service day a trip belongs to.
///
/// ```swift
/// let day = LocalDate("2026-03-29")!
/// let at = QueryTime.local(day, secondsOfDay: 8 * 3600)
/// ```
public typealias LocalDate = ServiceDate

/// A moment as a feed's wall clock shows it: the local date, the time of day, and the UTC
/// offset in force. `description` is ISO 8601 (`2026-03-29T08:00:00+02:00`).
///
/// ```swift
/// let d = try bundle.departures(from: "CENTRAL").first!
/// print(d.departureLocal.hour, d.departureLocal.minute)
/// ```
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The wall-clock date.
    public let date: LocalDate
    /// Seconds since local midnight, 0 to 86399.
    public let secondsOfDay: Int
    /// The UTC offset in force, in seconds east of UTC.
    public let utcOffsetSeconds: Int

    /// A wall-clock reading built from its parts.
    public init(date: LocalDate, secondsOfDay: Int, utcOffsetSeconds: Int) {
        self.date = date
        self.secondsOfDay = secondsOfDay
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses what `description` writes: `YYYY-MM-DDTHH:MM:SS±HH:MM` (or `Z`).
    public init?(iso text: String) {
        let chars = Array(text.utf8)
        guard chars.count == 25 || chars.count == 20, chars[10] == UInt8(ascii: "T"),
            let date = LocalDate(String(decoding: chars[0..<10], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard chars[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: chars[range], as: UTF8.self))
        }
        guard let h = number(11..<13), let m = number(14..<16), let s = number(17..<19), h < 24, m < 60, s < 60 else { return nil }
        var offset = 0
        if chars.count == 25 {
            guard chars[19] == UInt8(ascii: "+") || chars[19] == UInt8(ascii: "-"), let oh = number(20..<22), let om = number(23..<25)
            else { return nil }
            offset = (oh * 3600 + om * 60) * (chars[19] == UInt8(ascii: "-") ? -1 : 1)
        } else if chars[19] != UInt8(ascii: "Z") {
            return nil
        }
        self.init(date: date, secondsOfDay: h * 3600 + m * 60 + s, utcOffsetSeconds: offset)
    }

    /// `instant` on the wall clock of `timeZone`.
    ///
    /// ```swift
    /// let now = LocalDateTime(Date(), in: TimeZone(identifier: "Europe/Paris")!)
    /// ```
    public init(_ instant: Date, in timeZone: TimeZone) {
        self.init(epoch: Int(instant.timeIntervalSince1970.rounded(.down)), utcOffsetSeconds: timeZone.secondsFromGMT(for: instant))
    }

    /// The reading of Unix time `epoch` on a clock `utcOffsetSeconds` east of UTC.
    init(epoch: Int, utcOffsetSeconds offset: Int) {
        let local = epoch + offset
        let day = CivilDate(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
        self.init(date: LocalDate(day), secondsOfDay: local - day.dayNumber * 86_400, utcOffsetSeconds: offset)
    }

    /// Earlier instant first; of two names for one instant, the smaller UTC offset first.
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        let (x, y) = (a.instant, b.instant)
        return x != y ? x < y : a.utcOffsetSeconds < b.utcOffsetSeconds
    }

    /// The instant this wall-clock time and offset name.
    public var instant: Date {
        Date(timeIntervalSince1970: TimeInterval(date.civil.dayNumber * 86_400 + secondsOfDay - utcOffsetSeconds))
    }

    /// Encoded as its ISO 8601 text.
    public init(from decoder: Decoder) throws { self = try decoder.decodeText("an ISO 8601 time", LocalDateTime.init(iso:)) }

    public func encode(to encoder: Encoder) throws { try encoder.encodeText(description) }

    /// The hour, 0 to 23.
    public var hour: Int { secondsOfDay / 3600 }
    /// The minute, 0 to 59.
    public var minute: Int { secondsOfDay / 60 % 60 }
    /// The second, 0 to 59.
    public var second: Int { secondsOfDay % 60 }

    public var description: String {
        // Written digit by digit: boards format two of these per departure.
        let offset = abs(utcOffsetSeconds)
        let day = date.civil.components
        return String(unsafeUninitializedCapacity: 25) { out in
            func digits(_ value: Int, _ count: Int, at index: Int) {
                var v = value
                for i in stride(from: index + count - 1, through: index, by: -1) {
                    out[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            digits(day.year, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            digits(day.month, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            digits(day.day, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            digits(hour, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            digits(minute, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            digits(second, 2, at: 17)
            out[19] = utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            digits(offset / 3600, 2, at: 20)
            out[22] = UInt8(ascii: ":")
            digits(offset / 60 % 60, 2, at: 23)
            return 25
        }
    }
}
