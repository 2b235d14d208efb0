// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TransitToolkit",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "TransitRuntime", targets: ["TransitRuntime"]),
        .library(name: "GTFSCompiler", targets: ["GTFSCompiler"]),
        .executable(name: "gtfs-compile", targets: ["gtfs-compile"]),
        .executable(name: "transit-query", targets: ["transit-query"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The SQLite layer and the bundle schema, shared by the compiler and the runtime.
        .target(name: "TransitStore", dependencies: ["CSQLite"]),
        .target(name: "GTFSCompiler", dependencies: ["TransitStore", "CZlib"]),
        .target(name: "TransitRuntime", dependencies: ["TransitStore"]),
        .executableTarget(
            name: "gtfs-compile",
            dependencies: [
                "GTFSCompiler", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "transit-query",
            dependencies: [
                "TransitRuntime", "TransitStore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // In-process query timings for `make bench`.
        .executableTarget(name: "transit-bench", dependencies: ["TransitRuntime"]),
        // Paths, temporary folders and thread-safe collections shared by both test targets.
        .target(name: "TestKit", path: "Tests/TestKit"),
        .testTarget(name: "TransitToolkitTests", dependencies: ["GTFSCompiler", "TransitRuntime", "TransitStore", "TestKit"]),
        .testTarget(name: "RealFeedTests", dependencies: ["GTFSCompiler", "TransitRuntime", "TransitStore", "TestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
