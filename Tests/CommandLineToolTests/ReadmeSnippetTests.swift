import Foundation
import TestKit
import TestSupport
import XCTest

/// The README's Swift blocks are compiled with every build (target ReadmeSnippets); this
/// test keeps that copy equal to the README, so an edited block is compiled too.
final class ReadmeSnippetTests: XCTestCase {
    private func check(readme: URL? = nil) throws -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", TestPaths.repository.appendingPathComponent("tools/readme_snippets.py").path, "--check"]
        if let readme { arguments += ["--readme", readme.path] }
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    func testTheCompiledCopyIsTheReadmesCode() throws {
        let result = try check()
        XCTAssertEqual(result.status, 0, result.message)
    }

    func testAnEditedBlockIsNoticed() throws {
        let folder = TemporaryFolders.make()
        let readme = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let edited = readme.replacingOccurrences(of: "let info = try bundle.info()", with: "let info = try bundle.information()")
        XCTAssertNotEqual(edited, readme, "the README still shows bundle.info()")
        let copy = folder.appendingPathComponent("README.md")
        try edited.write(to: copy, atomically: true, encoding: .utf8)
        let result = try check(readme: copy)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.message.contains("make snippets"), result.message)
    }
}
