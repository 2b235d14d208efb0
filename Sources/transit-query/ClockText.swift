import Foundation
import TransitRuntime

/// Times as the text tables show them.
enum ClockText {
    /// `HH:MM` on the wall clock.
    static func minutes(_ time: LocalDateTime) -> String { String(format: "%02d:%02d", time.hour, time.minute) }

    /// `HH:MM:SS` on the wall clock.
    static func seconds(_ time: LocalDateTime) -> String { String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second) }

    /// A GTFS time (seconds from noon minus 12 h; hours may pass 24) as `H:MM`.
    static func gtfs(_ seconds: Int) -> String { String(format: "%d:%02d", seconds / 3600, seconds / 60 % 60) }
}
