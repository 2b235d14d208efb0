// The bundle's integer keys. A bundle numbers what the feeds name by text once, when it is
// compiled, and its tables refer to one another by those numbers (docs/bundle-format.md,
// BundleSchema+SQL.swift):
//
// - a feed's `fid`: `feeds.fid`, from 1 in the order the feeds were given;
// - a stop's `sid`: `stops.sid`, over all feeds (its text id in `stop_ids`);
// - a route's `rid`: `routes.rid` (its text id in `dict_route`);
// - a trip's `tid`: its place in `trip_blocks` (its text id; `trip_ids` finds it by text);
// - a pattern's `pid`: `patterns.pid`, one stop sequence with its pickup, drop-off and
//   times from the trip's start, shared by the trips that have them (and their tids);
// - a service's `sv`: one `service_id` of one feed (`service_blocks`), whose days
//   `ServiceCalendar` knows.
//
// Where numbers of different kinds meet (the journey planner and the live seam), they are
// held in the types below, so that a trip number cannot be passed for a pattern number.
// Each is 32 bits wide, as the packed tables keep them, and costs nothing over an `Int32`.

/// An integer key of one of the bundle's tables (`TripNumber`, `PatternNumber`...).
///
/// ```swift
/// let tid = TripNumber(42)
/// print(tid.int, tid)  // 42 42
/// ```
public protocol BundleNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key as the tables keep it.
    var raw: Int32 { get }
    init(raw: Int32)
}

extension BundleNumber {
    /// The key `value` (a row read from the bundle; checked against the table's bounds
    /// where the bundle is opened, so it fits in 32 bits).
    @inlinable public init(_ value: Int) { self.init(raw: Int32(truncatingIfNeeded: value)) }
    /// The key as an `Int`, for SQL parameters and array indexes.
    @inlinable public var int: Int { Int(raw) }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }
    public var description: String { String(raw) }
}

/// A feed's `fid` (from 1).
public struct FeedNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A stop's `sid`.
public struct StopNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A route's `rid`.
public struct RouteNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A trip's `tid`.
public struct TripNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A pattern's `pid`.
public struct PatternNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}

/// A service's `sv` (one feed's `service_id`).
public struct ServiceNumber: BundleNumber {
    /// The key as the tables keep it.
    public let raw: Int32
    /// The key `raw`.
    @inlinable public init(raw: Int32) { self.raw = raw }
}
