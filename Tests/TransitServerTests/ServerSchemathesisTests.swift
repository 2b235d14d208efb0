import Foundation
import TestKit
import TestSupport
import XCTest

/// Schemathesis (from PyPI; `make deps` installs it) generates requests from the server's own
/// `/openapi.json`, valid and not, and checks every answer: never a 5xx, the status and the
/// content type among those the document declares, the body of the declared schema.
final class ServerSchemathesisTests: XCTestCase {
    func testGeneratedRequestsGetDeclaredAnswersAndNoServerError() throws {
        let folder = TemporaryFolders.make()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import schemathesis"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            if TestPaths.mustNotSkip { throw TestPaths.missing("python3's schemathesis") }
            throw XCTSkip("schemathesis is not installed (make deps installs it)")
        }
        let server = try ServerUnderTest(["--bundle", "demo=\(TestSupport.sampleBundlePath)", "--log-level", "error"])
        defer { server.kill() }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        run.arguments = [
            "python3", "-m", "schemathesis.cli", "run", "\(server.base)/openapi.json",
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-examples", "30", "--generation-deterministic", "--request-timeout", "20",
        ]
        run.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["SCHEMATHESIS_HOOKS"] = nil
        run.environment = environment
        let out = Pipe()
        run.standardOutput = out
        run.standardError = out
        try run.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0, String(text.suffix(4000)))
        XCTAssertTrue(text.contains(" passed"), String(text.suffix(2000)))
        XCTAssertFalse(text.contains("failed"), String(text.suffix(4000)))
        // The server is still there and ready.
        XCTAssertEqual(RawHTTP.get(port: server.port, "/readyz")?.status, 200)
        let metrics = try XCTUnwrap(RawHTTP.get(port: server.port, "/metrics")).text
        XCTAssertFalse(metrics.contains(#"status="5"#), metrics)
    }
}
