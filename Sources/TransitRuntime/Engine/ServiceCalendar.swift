import BundleFormat

/// Which services run on a date: calendar weekdays within the date range, plus
/// calendar_dates additions, minus removals. Answers are cached per date as bitsets.
final class ServiceCalendar: Sendable {
    /// Services running on one date, one bit per service id (sv).
    struct ActiveSet: Sendable {
        fileprivate var words: [UInt64]

        func contains(_ sv: Int) -> Bool {
            let word = sv >> 6
            return word < words.count && words[word] & (1 << UInt64(sv & 63)) != 0
        }
    }

    private let cache = LockedCache<Int, ActiveSet>(limit: 512)
    private let serviceCount: Int

    init(db: SQLiteDatabase) throws {
        serviceCount = try db.scalarInt("SELECT max(sv) FROM dict_service") ?? 0
    }

    func active(on day: CivilDate, db: SQLiteDatabase) throws -> ActiveSet {
        try cache.value(day.dayNumber) {
            var set = ActiveSet(words: [UInt64](repeating: 0, count: serviceCount / 64 + 1))
            let date = day.yyyymmdd
            let weekly = try db.cached("SELECT sv FROM calendar WHERE start_date <= ?1 AND end_date >= ?1 AND (days >> ?2) & 1")
            weekly.bind([date, day.weekdayIndex])
            while try weekly.step() { set.set(weekly.int(0), true) }
            let exceptions = try db.cached("SELECT sv, exception_type FROM calendar_dates WHERE date = ?1")
            exceptions.bind([date])
            while try exceptions.step() { set.set(exceptions.int(0), exceptions.int(1) == 1) }
            return set
        }
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
