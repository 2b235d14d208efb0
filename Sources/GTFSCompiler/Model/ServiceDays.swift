import BundleFormat

/// Which days each service of one feed runs on (calendar weekdays within its range, plus
/// calendar_dates additions, minus removals), for checks made at compile time.
struct ServiceDays {
    private let calendar: [Int32: FeedData.Calendar]
    /// service -> day number -> exception_type (1 adds, 2 removes).
    private var exceptions: [Int32: [Int: Int]] = [:]

    init(_ feed: FeedData) {
        calendar = feed.calendar
        for entry in feed.calendarDates {
            guard let day = CivilDate(yyyymmdd: entry.date)?.dayNumber else { continue }
            exceptions[entry.service, default: [:]][day] = entry.exceptionType
        }
    }

    func runs(_ service: Int32, on day: CivilDate) -> Bool {
        if let type = exceptions[service]?[day.dayNumber] { return type == 1 }
        guard let record = calendar[service], let start = CivilDate(yyyymmdd: record.startDate),
            let end = CivilDate(yyyymmdd: record.endDate), start <= day, day <= end
        else { return false }
        return record.days & (1 << day.weekdayIndex) != 0
    }

    /// The first day on which both services run, or nil.
    func firstCommonDay(_ a: Int32, _ b: Int32) -> CivilDate? {
        var candidates = Set<Int>()
        for service in [a, b] {
            for (day, type) in exceptions[service] ?? [:] where type == 1 { candidates.insert(day) }
        }
        if let ra = range(a), let rb = range(b) {
            let from = max(ra.lowerBound, rb.lowerBound)
            let to = min(ra.upperBound, rb.upperBound)
            if from <= to {
                // The weekly pattern repeats: if the services share a weekday in the overlap, it
                // shows within its first week; removals may hide it, so the whole overlap is read.
                for day in from...to {
                    let date = CivilDate(dayNumber: day)
                    if runs(a, on: date) && runs(b, on: date) {
                        candidates.insert(day)
                        break
                    }
                }
            }
        }
        return candidates.sorted().lazy.map(CivilDate.init(dayNumber:)).first { runs(a, on: $0) && runs(b, on: $0) }
    }

    /// The last day the service runs, or nil when it never does.
    func lastDay(_ service: Int32) -> CivilDate? {
        var last = (exceptions[service] ?? [:]).filter { $0.value == 1 }.keys.max()
        if let range = range(service) {
            // Walk back from the end of the range to the first day that runs (removals may
            // take out whole weeks, so the walk is bounded by the range, not by 7 days).
            var day = range.upperBound
            while day >= range.lowerBound && day > (last ?? Int.min) {
                if runs(service, on: CivilDate(dayNumber: day)) {
                    last = day
                    break
                }
                day -= 1
            }
        }
        return last.map(CivilDate.init(dayNumber:))
    }

    /// The day numbers of a service's weekly range, when it has weekdays.
    private func range(_ service: Int32) -> ClosedRange<Int>? {
        guard let record = calendar[service], record.days != 0, let start = CivilDate(yyyymmdd: record.startDate),
            let end = CivilDate(yyyymmdd: record.endDate), start <= end
        else { return nil }
        return start.dayNumber...end.dayNumber
    }
}
