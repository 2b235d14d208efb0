import Foundation

/// Fixed days and instants for tests, and waiting on a monotonic clock.
///
/// No test may depend on the day it runs: the sample feeds end (valley on 2026-11-30,
/// metro on 2026-12-31), and a store's staleness, a board at "now" or a plan at "now" change
/// meaning on that day. Every query and every `status` in the tests takes one of these, and
/// `make lint` (`tools/lint_test_clock.py`) refuses the wall clock anywhere else in Tests/.
public enum TestClock {
    /// Monday 2026-03-30, 12:00 UTC: inside the metro sample's coverage (2026-01-01 to
    /// 2026-12-31) and more than `staleDays` before its end, so a bundle that is up to date
    /// is fresh on it.
    public static let metroDay = Date(timeIntervalSince1970: 1_774_872_000)

    /// The same day as `transit-store status --on` takes it.
    public static let metroDayText = "2026-03-30"

    /// Monday 2026-12-28, 12:00 UTC: within a week of the metro sample's last day, so the
    /// installed bundle is stale by its own coverage.
    public static let metroLastWeek = Date(timeIntervalSince1970: 1_798_459_200)

    /// Waits until `condition` holds, polling every `interval` seconds, for at most `seconds`
    /// of monotonic time; answers whether it held. Never a fixed sleep: the wait ends as soon
    /// as the condition is seen.
    @discardableResult
    public static func wait(
        upTo seconds: Double, every interval: Double = 0.01, until condition: () throws -> Bool
    ) rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            if try condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return try condition()
    }
}
