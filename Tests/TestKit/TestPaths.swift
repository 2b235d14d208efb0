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

    /// The folder holding the built products (the test runner, `...xctest`, sits beside
    /// them), so a test runs the binaries of its own build (debug or release).
    public static let products: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if runner.path.contains(".xctest") {
            var url = runner
            while !url.lastPathComponent.hasSuffix(".xctest") && url.path != "/" { url.deleteLastPathComponent() }
            return url.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug")
    }()
}
