import Foundation
import XCTest

/// Where the tests find the repository and `../shared`.
public enum TestPaths {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared` beside the repository: real feeds, broken feeds, cities. CI always has it;
    /// a user's clone does not.
    public static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared")

    /// A folder of `../shared`, or an `XCTSkip` that says the test needs it.
    public static func requireShared(_ folder: String) throws -> URL {
        let url = shared.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("needs ../shared/\(folder)") }
        return url
    }
}
