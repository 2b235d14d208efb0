import Foundation
import TransitRuntime

/// A clock a test moves by hand (`BundleStore(clock:)`, `RiderData(clock:)`): starts at a
/// fixed instant, never at the wall clock.
public final class SettableClock: Sendable {
    private let instant: Locked<Date>

    public init(_ start: Date = TestClock.metroDay) { instant = Locked(start) }

    /// The clock's time now.
    public var now: Date { instant.withLock { $0 } }

    /// The clock as a store takes it.
    public var function: @Sendable () -> Date { { self.now } }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: TimeInterval) { instant.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// Moves the clock on by `days` days.
    public func advance(days: Double) { advance(by: days * 86_400) }
}

extension TestClock {
    /// `wait(upTo:every:until:)` for async code: polls `condition` every 10 ms of monotonic
    /// time, at most `seconds`; answers whether it held. The wait ends when the condition is seen.
    public static func waitAsync(upTo seconds: Double, until condition: () async throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }
}
