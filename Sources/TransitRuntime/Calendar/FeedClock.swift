import BundleFormat
import Foundation

/// Time arithmetic in one feed's timezone, following the departures contract:
/// a GTFS time counts from noon minus 12 hours of its service day.
package struct FeedClock: Sendable {
    package let timeZone: TimeZone
    /// `timeZone`'s IANA identifier, made once (every departure carries it).
    package let timeZoneIdentifier: String
    /// UTC offsets by UTC day, `Int.min` for a day with a clock change: the time zone is
    /// asked twice per day instead of twice per 15 minutes (a random board meets new days).
    private let dayOffsets = LockedCache<Int, Int>(limit: 100_000)
    /// UTC offsets by 15-minute bucket of a day with a change, for buckets with one offset
    /// throughout.
    private let offsets = LockedCache<Int, Int>(limit: 100_000)

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        self.timeZoneIdentifier = timeZone.identifier
    }

    /// The UTC offset in seconds at an instant (epoch seconds).
    /// A span whose ends have the same offset is taken to have no change inside: no zone
    /// changes its clock twice within a day.
    package func offset(at epoch: Int) -> Int {
        let day = Self.span(of: epoch, length: 86_400)
        let daily = dayOffsets.value(day) { uniformOffset(from: day * 86_400, length: 86_400) }
        if daily != Int.min { return daily }
        let bucket = Self.span(of: epoch, length: 900)
        let cached = offsets.value(bucket) { uniformOffset(from: bucket * 900, length: 900) }
        return cached == Int.min ? zoneOffset(epoch) : cached
    }

    /// The index of the span of `length` seconds that holds `epoch`, rounding down.
    private static func span(of epoch: Int, length: Int) -> Int {
        epoch >= 0 ? epoch / length : (epoch - length + 1) / length
    }

    /// The offset throughout `[start, start + length)`, `Int.min` when it changes.
    private func uniformOffset(from start: Int, length: Int) -> Int {
        let first = zoneOffset(start)
        return zoneOffset(start + length - 1) == first ? first : Int.min
    }

    private func zoneOffset(_ epoch: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(epoch)))
    }

    /// The instant of `noon - 12 h` on `day`: GTFS time 0 of that service day.
    package func serviceDayStart(_ day: CivilDate) -> Int {
        let noonAsUTC = day.dayNumber * 86_400 + 43_200
        var noon = noonAsUTC - offset(at: noonAsUTC)
        noon = noonAsUTC - offset(at: noon)
        return noon - 43_200
    }

    /// The local calendar date of an instant.
    package func localDay(of epoch: Int) -> CivilDate {
        CivilDate(dayNumber: Int((Double(epoch + offset(at: epoch)) / 86_400).rounded(.down)))
    }

    /// The instant of a wall-clock time. A time skipped by a clock change, or one that
    /// happens twice, is read with the UTC offset in force before the change.
    package func instant(localDay day: CivilDate, secondsOfDay: Int) -> Int {
        let wall = day.dayNumber * 86_400 + secondsOfDay
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        let withBefore = wall - before
        if before == after || offset(at: withBefore) == before { return withBefore }
        let withAfter = wall - after
        return offset(at: withAfter) == after ? withAfter : withBefore
    }

    /// The wall-clock reading of an instant in this timezone.
    package func local(_ epoch: Int) -> LocalDateTime {
        LocalDateTime(epoch: epoch, utcOffsetSeconds: offset(at: epoch))
    }
}
