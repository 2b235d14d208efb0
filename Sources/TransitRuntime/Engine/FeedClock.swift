import BundleFormat
import Foundation

/// Time arithmetic in one feed's timezone, following the departures contract:
/// a GTFS time counts from noon minus 12 hours of its service day.
package struct FeedClock: Sendable {
    package let timeZone: TimeZone
    /// UTC offsets by 15-minute bucket of UTC time, for buckets with one offset throughout.
    private let offsets = LockedCache<Int, Int>(limit: 100_000)

    init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The UTC offset in seconds at an instant (epoch seconds).
    package func offset(at epoch: Int) -> Int {
        let bucket = epoch >= 0 ? epoch / 900 : (epoch - 899) / 900
        let cached = offsets.value(bucket) {
            let start = zoneOffset(bucket * 900)
            let end = zoneOffset(bucket * 900 + 899)
            return start == end ? start : Int.min
        }
        return cached == Int.min ? zoneOffset(epoch) : cached
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
        let off = offset(at: epoch)
        let local = epoch + off
        let day = CivilDate(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
        return LocalDateTime(date: LocalDate(day), secondsOfDay: local - day.dayNumber * 86_400, utcOffsetSeconds: off)
    }
}
