import BundleFormat
import TransitSQLite

/// Which services run on a date: calendar weekdays within the date range, plus the dates a
/// service's calendar_dates add, minus those they remove. The weekly calendars and the
/// exceptions (`service_dates`, packed date sets) are read once, on the first question
/// (a journey asks about five dates at a time, often new ones); answers are cached per date
/// as bitsets.
final class ServiceCalendar: Sendable {
    /// Services running on one date, one bit per service id (sv).
    struct ActiveSet: Sendable {
        fileprivate var words: [UInt64]

        func contains(_ sv: Int) -> Bool {
            let word = sv >> 6
            return word < words.count && words[word] & (1 << UInt64(sv & 63)) != 0
        }
    }

    /// One service's weekly calendar: weekdays (bit 0 Monday) from start to end (YYYYMMDD).
    private struct Weekly: Sendable {
        var sv: Int
        var days: Int
        var start: Int
        var end: Int
    }

    /// One service's exception dates (days since 1970-01-01), ascending.
    private struct Exceptions: Sendable {
        var sv: Int
        var added: [Int32]
        var removed: [Int32]
    }

    /// The bundle's `calendar` and `service_dates`, as read once.
    private struct Rules: Sendable {
        var weekly: [Weekly]
        var exceptions: [Exceptions]
    }

    private let cache = LockedCache<Int, ActiveSet>(limit: 512)
    private let rules = LockedCache<Int, Rules>(limit: 1)
    private let serviceCount: Int

    init(db: SQLiteDatabase) throws {
        // The largest sv with a weekly calendar or dates (a trip of any other never runs).
        serviceCount =
            try db.scalarInt("SELECT max(sv) FROM (SELECT max(sv) AS sv FROM calendar UNION ALL SELECT max(sv) FROM service_dates)")
            ?? 0
    }

    /// The services active on `day` when they are already known, without a database.
    func cachedActive(on day: CivilDate) -> ActiveSet? { cache.cached(day.dayNumber) }

    func active(on day: CivilDate, db: SQLiteDatabase) throws -> ActiveSet {
        try cache.value(day.dayNumber) {
            var set = ActiveSet(words: [UInt64](repeating: 0, count: serviceCount / 64 + 1))
            let rules = try allRules(db)
            let date = day.yyyymmdd
            let weekday = day.weekdayIndex
            for service in rules.weekly where service.start <= date && date <= service.end && (service.days >> weekday) & 1 == 1 {
                set.set(service.sv, true)
            }
            let target = Int32(truncatingIfNeeded: day.dayNumber)
            for service in rules.exceptions {
                if Self.has(service.added, target) { set.set(service.sv, true) }
                if Self.has(service.removed, target) { set.set(service.sv, false) }
            }
            return set
        }
    }

    /// Every service's weekly calendar and exceptions, read and decoded once.
    private func allRules(_ db: SQLiteDatabase) throws -> Rules {
        try rules.value(0) {
            var result = Rules(weekly: [], exceptions: [])
            let weekly = try db.cached("SELECT sv, days, start_date, end_date FROM calendar")
            defer { weekly.reset() }
            while try weekly.step() {
                result.weekly.append(Weekly(sv: weekly.int(0), days: weekly.int(1), start: weekly.int(2), end: weekly.int(3)))
            }
            let dates = try db.cached("SELECT sv, added, removed FROM service_dates ORDER BY sv")
            defer { dates.reset() }
            do {
                while try dates.step() {
                    let added = try DateSetBlob.decode(dates.blob(1)).map { Int32(truncatingIfNeeded: $0) }
                    let removed = try DateSetBlob.decode(dates.blob(2)).map { Int32(truncatingIfNeeded: $0) }
                    result.exceptions.append(Exceptions(sv: dates.int(0), added: added, removed: removed))
                }
            } catch is PackedReader.Damaged {
                throw TransitError.corruptBundle(reason: "a service's calendar_dates (service_dates) is damaged in the bundle")
            }
            return result
        }
    }

    /// Binary search in ascending days.
    private static func has(_ days: [Int32], _ day: Int32) -> Bool {
        guard let first = days.first, let last = days.last, first <= day, day <= last else { return false }
        var low = 0
        var high = days.count
        while low < high {
            let mid = (low + high) / 2
            if days[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low < days.count && days[low] == day
    }
}

extension ServiceCalendar.ActiveSet {
    fileprivate mutating func set(_ sv: Int, _ on: Bool) {
        let word = sv >> 6
        let bit = UInt64(1) << UInt64(sv & 63)
        guard word < words.count else { return }
        if on { words[word] |= bit } else { words[word] &= ~bit }
    }
}
