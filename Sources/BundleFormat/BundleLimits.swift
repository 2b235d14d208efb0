/// The bounds the compiler writes within and the runtime and the patch applier check,
/// in one place: what a bundle may hold (docs/runtime.md, "How the runtime is checked").
///
/// ```swift
/// db.limitValueLength(to: BundleLimits.maxValueBytes)
/// ```
package enum BundleLimits {
    /// The largest string or BLOB of a bundle (a whole country's largest planner route is
    /// a few megabytes): SQLite's length limit on every connection that reads or patches one.
    package static let maxValueBytes: Int32 = 64 << 20
    /// The most bytes of a text field: a stop's id, name, code or platform, a route's or
    /// agency's name, a headsign, a translation. The compiler cuts longer ones; the
    /// runtime refuses them before copying them into answers.
    package static let maxTextBytes = 10_000
    /// A pathway's traversal_time, in seconds.
    package static let pathwaySeconds = 1...86_400
    /// A pathway's length, in decimetres (the compiler keeps lengths below 100 km, and
    /// stores them rounded to the decimetre).
    package static let pathwayDecimetres = 0...1_000_000
    /// A pathway's stair_count (negative: down).
    package static let pathwayStairs = -10_000...10_000
}
