/// Which diagnostics fail a compile. Errors always do; information never does. Warnings do
/// under `strict` or past `maxWarnings`, except the codes in `allowed`.
///
/// ```swift
/// // Fail on any warning but unknown (agency extension) files.
/// let policy = WarningPolicy(strict: true, allowed: [.unknownFile])
/// ```
public struct WarningPolicy: Sendable, Equatable {
    /// Refuse the bundle on any warning not in `allowed`.
    public var strict: Bool
    /// Warnings that never refuse the bundle.
    public var allowed: Set<DiagnosticCode>
    /// Refuse the bundle past this many warnings, nil for no limit.
    public var maxWarnings: Int?

    /// A policy; the default refuses nothing but errors.
    public init(strict: Bool = false, allowed: Set<DiagnosticCode> = [], maxWarnings: Int? = nil) {
        self.strict = strict
        self.allowed = allowed
        self.maxWarnings = maxWarnings
    }

    /// Why the log fails the compile, or nil when it passes.
    func refusal(_ log: DiagnosticLog) -> String? {
        if log.hasErrors { return "\(log.errorCount) error(s)" }
        let counted = log.warningCount(excluding: allowed)
        if strict && counted > 0 { return "\(counted) warning(s) not allowed (--strict)" }
        if let maxWarnings, counted > maxWarnings { return "\(counted) warning(s), more than --max-warnings \(maxWarnings)" }
        return nil
    }
}
