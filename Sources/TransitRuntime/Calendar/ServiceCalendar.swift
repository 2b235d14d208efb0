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
            return word >= 0 && word < words.count && words[word] & (1 << UInt64(sv & 63)) != 0
        }

        func contains(_ service: ServiceNumber) -> Bool { contains(service.int) }
    }

    /// One service's weekly calendar: weekdays (bit 0 Monday) from start to end (YYYYMMDD).
    private struct Weekly: Sendable {
        var sv: Int
        var days: Int
        var start: Int
        var end: Int
    }

    /// One exception: service `sv` added (or removed) on `day` (days since 1970-01-01).
    private struct Exception: Sendable {
        var day: Int32
        var sv: Int32
        var added: Bool
    }

    /// The bundle's `calendar` and `service_dates`, as read once: the exceptions of every
    /// service ordered by day (within a day the additions first), so a date finds its own
    /// by halves instead of asking every service.
    private struct Rules: Sendable {
        var weekly: [Weekly]
        var exceptions: [Exception]

        /// The exceptions on `day`.
        func exceptions(on day: Int32) -> ArraySlice<Exception> {
            var (low, high) = (0, exceptions.count)
            while low < high {
                let mid = (low + high) / 2
                if exceptions[mid].day < day { low = mid + 1 } else { high = mid }
            }
            var end = low
            while end < exceptions.count && exceptions[end].day == day { end += 1 }
            return exceptions[low..<end]
        }
    }

    private let cache = LockedCache<Int, ActiveSet>(limit: 512)
    /// Read under the lock: threads asking together (a realtime message's first lookups)
    /// wait for one reading instead of each making its own.
    private let rules = Locked<Rules?>(nil)
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
            // Additions before removals: a date both adds and removes is removed.
            for exception in rules.exceptions(on: target) { set.set(Int(exception.sv), exception.added) }
            return set
        }
    }

    /// Every service's weekly calendar and exceptions, read and decoded once.
    private func allRules(_ db: SQLiteDatabase) throws -> Rules {
        try rules.withLock { kept in
            if let kept { return kept }
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
                    let sv = Int32(truncatingIfNeeded: dates.int(0))
                    for day in try DateSetBlob.decode(dates.blob(1)) {
                        result.exceptions.append(Exception(day: Int32(truncatingIfNeeded: day), sv: sv, added: true))
                    }
                    for day in try DateSetBlob.decode(dates.blob(2)) {
                        result.exceptions.append(Exception(day: Int32(truncatingIfNeeded: day), sv: sv, added: false))
                    }
                }
            } catch is PackedReader.Damaged {
                throw TransitError.corruptBundle(reason: "a service's calendar_dates (service_dates) is damaged in the bundle")
            }
            result.exceptions.sort { ($0.day, $0.added ? 0 : 1, $0.sv) < ($1.day, $1.added ? 0 : 1, $1.sv) }
            kept = result
            return result
        }
    }
}

extension ServiceCalendar.ActiveSet {
    fileprivate mutating func set(_ sv: Int, _ on: Bool) {
        let word = sv >> 6
        let bit = UInt64(1) << UInt64(sv & 63)
        // An sv outside the bundle's (a damaged row) sets nothing.
        guard word >= 0 && word < words.count else { return }
        if on { words[word] |= bit } else { words[word] &= ~bit }
    }
}
