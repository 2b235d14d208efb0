import Foundation
import TestKit
import XCTest

/// Validates an OpenAPI document with Python's openapi-spec-validator (`make deps` installs it).
enum OpenAPICheck {
    static func validate(_ document: Data) throws {
        let file = TemporaryFolders.make().appendingPathComponent("openapi.json")
        try document.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import json, sys\ntry:\n from openapi_spec_validator import validate\nexcept ImportError:\n sys.exit(3)\nvalidate(json.load(open(sys.argv[1])))",
            file.path,
        ]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            if TestPaths.mustNotSkip { throw TestPaths.missing("python3's openapi-spec-validator") }
            throw XCTSkip("python3's openapi-spec-validator is not installed (make deps installs it)")
        }
        XCTAssertEqual(process.terminationStatus, 0, "the OpenAPI document is not valid: \(message.suffix(1500))")
    }
}
