/// A calendar date without a time zone, stored as days since 1970-01-01.
///
/// ```swift
/// let date = CivilDate(yyyymmdd: 20260329)!   // a Sunday
/// date.weekdayIndex                            // 6 (Monday = 0)
/// ```
package struct CivilDate: Hashable, Comparable, Sendable {
    package let dayNumber: Int

    package init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// Builds a date from year, month and day; nil when the day does not exist.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
            (1...9999).contains(year)
        else { return nil }
        // Days from civil, after H. Hinnant's public-domain algorithm description.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        dayNumber = era * 146_097 + doe - 719_468
    }

    /// Parses the GTFS form `YYYYMMDD`.
    package init?(yyyymmdd value: Int) {
        self.init(year: value / 10000, month: value / 100 % 100, day: value % 100)
    }

    /// Parses `YYYY-MM-DD`.
    package init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    package var components: (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package var yyyymmdd: Int {
        let c = components
        return c.year * 10000 + c.month * 100 + c.day
    }

    /// `YYYY-MM-DD`.
    package var iso: String {
        let c = components
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }

    /// Monday = 0 ... Sunday = 6, the bit order of `calendar.days`.
    package var weekdayIndex: Int {
        // 1970-01-01 was a Thursday (index 3).
        ((dayNumber % 7) + 7 + 3) % 7
    }

    package func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    package static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Zero-pads a non-negative number to `width` digits.
package func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
