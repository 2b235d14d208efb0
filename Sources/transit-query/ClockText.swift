import Foundation
import TransitRuntime

/// Wall-clock times as the text tables show them.
enum ClockText {
    /// `HH:MM`.
    static func minutes(_ time: LocalDateTime) -> String { String(format: "%02d:%02d", time.hour, time.minute) }

    /// `HH:MM:SS`.
    static func seconds(_ time: LocalDateTime) -> String { String(format: "%02d:%02d:%02d", time.hour, time.minute, time.second) }
}
