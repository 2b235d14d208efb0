/// A problem that stops the compile: the only kind of diagnostic that can be thrown.
///
/// It is built from a `FatalCode`, which offers only the error codes, so a warning can
/// never be thrown by mistake (and silently end a feed). The compiler records it in the
/// log and fails: nothing is written.
///
/// ```swift
/// throw FatalDiagnostic(.missingFile, file: "stops.txt", message: "required file is missing")
/// ```
public struct FatalDiagnostic: Error, CustomStringConvertible {
    /// What stopped the compile, with its place.
    public var diagnostic: Diagnostic

    /// A fatal diagnostic with its place.
    public init(
        _ code: FatalCode, feed: String? = nil, file: String? = nil, line: Int? = nil, column: Int? = nil,
        field: String? = nil, entityID: String? = nil, value: String? = nil, message: String
    ) {
        diagnostic = Diagnostic(
            code.code, feed: feed, file: file, line: line, column: column, field: field,
            entityID: entityID, value: value, message: message)
    }

    /// The diagnostic's code.
    public var code: DiagnosticCode { diagnostic.code }
    public var description: String { diagnostic.formatted }

    /// The same failure, placed in `feed` (readers below the feed level do not know its id).
    func inFeed(_ feed: String) -> FatalDiagnostic {
        var copy = self
        copy.diagnostic.feed = feed
        return copy
    }
}

/// The error codes, and only those: what `FatalDiagnostic` can be made of.
public struct FatalCode: Sendable {
    let code: DiagnosticCode

    private init(_ code: DiagnosticCode) { self.code = code }

    /// A required file is missing.
    public static let missingFile = FatalCode(.missingFile)
    /// A required column is missing.
    public static let missingColumn = FatalCode(.missingColumn)
    /// A file is not UTF-8.
    public static let notUTF8 = FatalCode(.notUTF8)
    /// A file is not CSV as RFC 4180 writes it.
    public static let brokenCSV = FatalCode(.brokenCSV)
    /// The zip file cannot be read.
    public static let unreadableArchive = FatalCode(.unreadableArchive)
    /// A line is longer than the reader takes.
    public static let lineTooLong = FatalCode(.lineTooLong)
    /// No trip could be kept.
    public static let noUsableTrips = FatalCode(.noUsableTrips)
    /// The input cannot be read.
    public static let unreadableInput = FatalCode(.unreadableInput)
    /// The bundle could not be written.
    public static let outputFailed = FatalCode(.outputFailed)
    /// The city catalogue is not usable.
    public static let badCatalogue = FatalCode(.badCatalogue)
    /// No usable agency_timezone.
    public static let noTimezone = FatalCode(.noTimezone)
}
