import Foundation
import XCTest

/// Where the tests find the repository and `../shared`.
public enum TestPaths {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shared data: real feeds, broken feeds, cities, realtime captures. `SHARED` in the
    /// environment when set (`make test SHARED=...` passes it; relative to the repository),
    /// else `../shared` beside the repository. CI always has it; a user's clone does not.
    public static let shared: URL = {
        guard let value = ProcessInfo.processInfo.environment["SHARED"], !value.isEmpty else {
            return repository.deletingLastPathComponent().appendingPathComponent("shared")
        }
        return value.hasPrefix("/") ? URL(fileURLWithPath: value) : repository.appendingPathComponent(value).standardizedFileURL
    }()

    /// True where a test that cannot run must fail instead of skipping: in CI (`CI` set, as
    /// CI sets it) or when asked (`REQUIRE_SHARED` set).
    public static let mustNotSkip: Bool = {
        let environment = ProcessInfo.processInfo.environment
        func set(_ name: String) -> Bool { environment[name].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false }
        return set("CI") || set("REQUIRE_SHARED")
    }()

    /// A test's missing precondition (shared data, root, a program): a skip on a user's
    /// machine, an error (a failure) in CI, so that CI never stays green by skipping.
    public static func missing(_ what: String) -> Error {
        mustNotSkip ? Missing(what: what) : XCTSkip(what)
    }

    /// What `missing(_:)` throws in CI.
    public struct Missing: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "\(what) (CI or REQUIRE_SHARED is set: a missing precondition fails)" }
    }

    /// A folder of the shared data, or `missing(...)` saying the test needs it.
    public static func requireShared(_ folder: String) throws -> URL {
        let url = shared.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: url.path) else { throw missing("needs \(shared.path)/\(folder)") }
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
