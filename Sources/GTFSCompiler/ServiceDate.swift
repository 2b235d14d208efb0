import BundleFormat

/// A service day as `YYYY-MM-DD`: the type `TransitRuntime` answers with, here in the
/// compile summary's coverage.
///
/// ```swift
/// let summary = try Compiler.compile(request, log: log)
/// summary.serviceDates.first?.description   // "2026-01-05"
/// ```
public typealias ServiceDate = BundleFormat.ServiceDate
