import BundleFormat
import Foundation
import TransitSQLite

/// Trips per day across a bundle's coverage: the report's calendar (a heat strip), where a
/// gap over a holiday shows. Computed one way for the compiled model and for a `--base`
/// bundle read back, from the same three facts: each service's calendar row, its added and
/// removed dates, and how many trips it has.
///
/// ```swift
/// let calendar = ServiceCalendar(rows: [.init(sv: 1, days: 0b0011111, start: 20260105, end: 20260130)], trips: [1: 40])
/// calendar.tripsPerDay.first   // 40: Monday 5 January
/// ```
public struct ServiceCalendar: Sendable, Encodable, Equatable {
    /// One service's calendar.txt row (bundle sv, weekday bits Monday = 1, dates YYYYMMDD).
    struct Row {
        var sv: Int
        var days: Int
        var start: Int
        var end: Int
    }

    /// The first day shown, nil when no service runs on any day.
    public let firstDate: ServiceDate?
    /// Trips running on each day from `firstDate`, one entry per day.
    public let tripsPerDay: [Int]
    /// Holidays as the feed has them: days on which calendar_dates.txt removes a service that
    /// would otherwise run and that have fewer trips than 80 % of the median of their weekday
    /// (a service swapped for another on an ordinary day is not one). Where gaps come from.
    public let removalDays: [ServiceDate]
    /// Days inside the span with no trip at all.
    public var daysWithoutService: Int { tripsPerDay.filter { $0 == 0 }.count }
    /// True when the span was longer than `maximumDays` and cut there.
    public let isCut: Bool

    /// The most days shown: two years.
    public static let maximumDays = 732

    init(rows: [Row], added: [Int: Set<Int>] = [:], removed: [Int: Set<Int>] = [:], trips: [Int: Int]) {
        var starts: [Int] = []
        var ends: [Int] = []
        var calendarOf: [Int: (days: Int, start: Int, end: Int)] = [:]
        for row in rows where trips[row.sv, default: 0] > 0 {
            guard let start = CivilDate(yyyymmdd: row.start)?.dayNumber, let end = CivilDate(yyyymmdd: row.end)?.dayNumber,
                start <= end
            else { continue }
            calendarOf[row.sv] = (row.days, start, end)
            starts.append(start)
            ends.append(end)
        }
        for (sv, days) in added where trips[sv, default: 0] > 0 {
            if let first = days.min(), let last = days.max() {
                starts.append(first)
                ends.append(last)
            }
        }
        guard let first = starts.min(), let last = ends.max() else {
            self.init(firstDate: nil, tripsPerDay: [], removalDays: [], isCut: false)
            return
        }
        let count = min(last - first + 1, Self.maximumDays)
        var perDay = [Int](repeating: 0, count: count)
        var removals = Set<Int>()
        for (sv, tripCount) in trips where tripCount > 0 {
            let calendar = calendarOf[sv]
            let plus = added[sv] ?? []
            let minus = removed[sv] ?? []
            for index in 0..<count {
                let day = first + index
                var runs = false
                if let calendar, calendar.start <= day, day <= calendar.end {
                    runs = calendar.days & (1 << CivilDate(dayNumber: day).weekdayIndex) != 0
                }
                if runs && minus.contains(day) {
                    removals.insert(day)
                    runs = false
                }
                if plus.contains(day) { runs = true }
                if runs { perDay[index] += tripCount }
            }
        }
        // The median of each weekday, to tell a holiday from a service swapped on an ordinary day.
        var byWeekday = [[Int]](repeating: [], count: 7)
        for (index, trips) in perDay.enumerated() { byWeekday[CivilDate(dayNumber: first + index).weekdayIndex].append(trips) }
        let medians = byWeekday.map { $0.sorted()[safe: $0.count / 2] ?? 0 }
        let holidays = removals.filter { day in
            let trips = perDay[day - first]
            return Double(trips) < 0.8 * Double(medians[CivilDate(dayNumber: day).weekdayIndex])
        }
        self.init(
            firstDate: ServiceDate(CivilDate(dayNumber: first)), tripsPerDay: perDay,
            removalDays: holidays.sorted().map { ServiceDate(CivilDate(dayNumber: $0)) }, isCut: last - first + 1 > count)
    }

    private init(firstDate: ServiceDate?, tripsPerDay: [Int], removalDays: [ServiceDate], isCut: Bool) {
        self.firstDate = firstDate
        self.tripsPerDay = tripsPerDay
        self.removalDays = removalDays
        self.isCut = isCut
    }

    /// The calendar of the compiled model.
    init(model: BundleModel) {
        var trips: [Int: Int] = [:]
        for trip in model.trips { trips[trip.sv, default: 0] += 1 }
        var added: [Int: Set<Int>] = [:]
        var removed: [Int: Set<Int>] = [:]
        for date in model.calendarDates {
            guard let day = CivilDate(yyyymmdd: date.date)?.dayNumber else { continue }
            if date.exceptionType == 1 { added[date.sv, default: []].insert(day) } else { removed[date.sv, default: []].insert(day) }
        }
        self.init(
            rows: model.calendar.map { Row(sv: $0.sv, days: $0.record.days, start: $0.record.startDate, end: $0.record.endDate) },
            added: added, removed: removed, trips: trips)
    }

    /// The calendar of a bundle written earlier (`--base`), read from its tables.
    init(bundle db: SQLiteDatabase) throws {
        var rows: [Row] = []
        let calendar = try db.prepare("SELECT sv, days, start_date, end_date FROM calendar")
        while try calendar.step() {
            rows.append(Row(sv: calendar.int(0), days: calendar.int(1), start: calendar.int(2), end: calendar.int(3)))
        }
        var added: [Int: Set<Int>] = [:]
        var removed: [Int: Set<Int>] = [:]
        let dates = try db.prepare("SELECT sv, added, removed FROM service_dates")
        while try dates.step() {
            added[dates.int(0)] = Set(try DateSetBlob.decode(dates.blob(1)))
            removed[dates.int(0)] = Set(try DateSetBlob.decode(dates.blob(2)))
        }
        var trips: [Int: Int] = [:]
        let patterns = try db.prepare("SELECT trips FROM patterns")
        while try patterns.step() {
            for trip in try PatternTripsBlob.decode(patterns.blob(0)) { trips[trip.sv, default: 0] += 1 }
        }
        self.init(rows: rows, added: added, removed: removed, trips: trips)
    }

    /// The trips on `date`, nil outside the span.
    public func trips(on date: ServiceDate) -> Int? {
        guard let firstDate else { return nil }
        let index = date.civil.dayNumber - firstDate.civil.dayNumber
        return tripsPerDay.indices.contains(index) ? tripsPerDay[index] : nil
    }

    private enum CodingKeys: String, CodingKey {
        case firstDate = "first_date"
        case tripsPerDay = "trips_per_day"
        case removalDays = "removal_days"
        case daysWithoutService = "days_without_service"
        case isCut = "cut"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(firstDate, forKey: .firstDate)
        try c.encode(tripsPerDay, forKey: .tripsPerDay)
        try c.encode(removalDays, forKey: .removalDays)
        try c.encode(daysWithoutService, forKey: .daysWithoutService)
        try c.encode(isCut, forKey: .isCut)
    }
}

extension Array {
    /// The element at `index`, nil outside the array.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
