/// What a publisher's report shows beyond the diagnostics, computed once from the compiled
/// model when a report is asked for (`CompileRequest.collectsReportFacts`): the service
/// calendar, the network's map and, with `--base`, the changes since the base version. The
/// JSON report and the HTML page are both written from these values.
public struct ReportFacts: Sendable, Encodable, Equatable {
    /// Trips per day across the coverage.
    public let calendar: ServiceCalendar
    /// Stops and shapes to draw.
    public let map: NetworkMap
    /// The changes since `--base`, nil without one (or when it could not be read: `baseProblem`).
    public let changes: VersionChanges?
    /// Why the base could not be compared, nil when it could (or none was given).
    public let baseProblem: String?

    init(model: BundleModel, basePath: String?) {
        calendar = ServiceCalendar(model: model)
        map = NetworkMap(model: model)
        var changes: VersionChanges?
        var problem: String?
        if let basePath {
            do { changes = try VersionChanges(model: model, calendar: calendar, base: basePath) } catch {
                problem = "\(error)"
            }
        }
        self.changes = changes
        baseProblem = problem
    }

    private enum CodingKeys: String, CodingKey {
        case calendar, map, changes
        case baseProblem = "base_problem"
    }
}
