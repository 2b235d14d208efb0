// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "TransitToolkit",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "TransitRuntime", targets: ["TransitRuntime"]),
        .library(name: "TransitCities", targets: ["TransitCities"]),
        .library(name: "TransitRealtime", targets: ["TransitRealtime"]),
        .library(name: "TransitStore", targets: ["TransitStore"]),
        .library(name: "GTFSCompiler", targets: ["GTFSCompiler"]),
        .executable(name: "gtfs-compile", targets: ["gtfs-compile"]),
        .executable(name: "transit-query", targets: ["transit-query"]),
        .executable(name: "transit-store", targets: ["transit-store"]),
        .executable(name: "transit-server", targets: ["transit-server"]),
        .library(name: "TransitServer", targets: ["TransitServer"]),
        .library(name: "TransitClient", targets: ["TransitClient"]),
        .library(name: "TransitSync", targets: ["TransitSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The store's HTTP client on Linux (Apple platforms use URLSession): README "HTTP client".
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Ed25519 manifest signatures (Curve25519.Signing; the same code on Apple platforms).
        // Already in the graph through async-http-client, so it adds no package to build.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // GTFS-Realtime decoding (TransitRealtime only; the generated code is committed: README "Realtime").
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `make docs`: the DocC catalogues of the three libraries (a plugin; nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // transit-server: HTTP/1.1 on SwiftNIO (README "Server" says why this one); its traits
        // off, so swift-configuration is not built.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // transit-server's rider data in PostgreSQL (--sync-db postgres://...): README "Sync".
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The compiler's inflate on Linux (zlib elsewhere): chosen by measurement, README "Inflate".
        .systemLibrary(name: "CIsal", path: "Sources/CIsal", providers: [.apt(["libisal-dev"])]),
        // SHA-256 on Linux (Apple platforms use CommonCrypto): chosen by measurement, README "SHA-256".
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        // SQLite for the bundle readers and writers and for the store's own state database.
        .target(name: "TransitSQLite", dependencies: ["CSQLite"]),
        // SHA-256 and durable file writes (fsync, copies): bundles, patches and the store's downloads.
        .target(name: "FileIntegrity", dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // The bundle file format both sides share: schema, packed columns, dates, geo, search keys.
        .target(name: "BundleFormat", dependencies: ["TransitSQLite", "FileIntegrity"]),
        // Patches between two versions of a bundle: make (compiler), check and apply (runtime).
        .target(name: "PatchEngine", dependencies: ["BundleFormat", "TransitSQLite", "FileIntegrity"]),
        // The download server's manifest document: written by the compiler, read by the store.
        .target(name: "ManifestFormat"),
        // Signing (compiler) and checking (store) of manifests.
        .target(name: "ManifestSigning", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The rider's synced data as both sides see it: actions, stamps, the rules and the wire bodies.
        .target(name: "SyncFormat"),
        // Text read by the compiler and the command line only: JSON (catalogues, batch) and UTF-8 checks.
        .target(name: "TransitJSON"),
        .target(
            name: "GTFSCompiler",
            dependencies: [
                "BundleFormat", "TransitSQLite", "FileIntegrity", "PatchEngine", "ManifestFormat", "TransitJSON", "CZlib",
                .target(name: "CIsal", condition: .when(platforms: [.linux])),
            ]),
        .target(name: "TransitRuntime", dependencies: ["BundleFormat", "TransitSQLite", "PatchEngine"]),
        // The bundle's city catalogue (search, nearest, filters): a separate product, so an app
        // that only shows departures does not carry it.
        .target(name: "TransitCities", dependencies: ["TransitRuntime", "BundleFormat", "TransitSQLite"]),
        // GTFS-Realtime over the bundle's boards: a separate product, so apps without it do not link protobuf.
        .target(
            name: "TransitRealtime",
            dependencies: ["TransitRuntime", "BundleFormat", "TransitJSON", .product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // The on-device store: download, verify, update and evict bundles (no compiler inside).
        .target(
            name: "TransitStore",
            dependencies: [
                "TransitRuntime", "TransitCities", "TransitSQLite", "FileIntegrity", "ManifestFormat", "ManifestSigning", "CZlib",
                "SyncFormat",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
            ]),
        .executableTarget(
            name: "gtfs-compile",
            dependencies: [
                "GTFSCompiler", "ManifestSigning", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // transit-query's commands as a library: options, queries and their JSON answers, which
        // the command line prints and transit-server sends (one engine, one encoding).
        .target(
            name: "TransitCommands",
            dependencies: [
                "TransitRuntime", "TransitCities", "TransitRealtime", "BundleFormat", "TransitJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "transit-query", dependencies: ["TransitCommands"]),
        // The runtime over HTTP: routes, live data fetched by the server, bundles swapped under load.
        .target(
            name: "TransitServer",
            dependencies: [
                "TransitCommands", "TransitRuntime", "TransitRealtime", "TransitStore", "TransitJSON", "FileIntegrity", "CZlib",
                "SyncFormat", "TransitSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "transit-server", dependencies: ["TransitServer"]),
        // The app's HTTP to the server (AsyncHTTPClient on Linux, URLSession on Apple platforms).
        .target(
            name: "AppHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
            ]),
        // The rider's own data on the device: saved places, notes, preferences, the outbox, sync.
        .target(name: "TransitSync", dependencies: ["SyncFormat", "AppHTTP", "TransitStore", "TransitSQLite"]),
        // The app's side of the server: asks it, decodes into the runtime's types, and falls
        // back to the installed bundle when it cannot be reached.
        .target(
            name: "TransitClient", dependencies: ["TransitRuntime", "TransitRealtime", "AppHTTP"]),
        .executableTarget(
            name: "transit-store",
            dependencies: ["TransitStore", "TransitSync", "SyncFormat", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Download, hashing and start-up timings of the store for `make bench`.
        .executableTarget(
            name: "store-bench",
            dependencies: [
                "TransitStore", "ManifestSigning", "TransitSync", "SyncFormat",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
            ]),
        // A program written as an app uses the libraries; ExampleAppTests runs it (README "Example").
        .executableTarget(name: "offline-board-example", dependencies: ["TransitStore", "TransitRuntime"], path: "Examples/OfflineBoard"),
        .executableTarget(
            name: "transit-app-example",
            dependencies: ["TransitStore", "TransitRuntime", "TransitCities", "TransitRealtime", "TransitClient", "TransitSync"],
            path: "Examples/TransitApp"),
        // The README's Swift blocks, copied by `make snippets` so that every build compiles them
        // (ReadmeSnippetTests fails when the copy differs from the README).
        .target(
            name: "ReadmeSnippets",
            dependencies: [
                "TransitStore", "TransitRuntime", "TransitCities", "TransitRealtime", "TransitClient", "TransitServer", "GTFSCompiler",
                "TransitSync",
            ],
            path: "Examples/ReadmeSnippets"),
        // In-process query timings for `make bench`.
        .executableTarget(
            name: "transit-bench",
            dependencies: [
                "TransitRuntime", "TransitCities", "TransitRealtime", "BundleFormat", "TransitSQLite", "TestKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
        // Paths, temporary folders, servers and thread-safe collections shared by every test target.
        .target(name: "TestKit", dependencies: ["BundleFormat", "TransitSQLite", "TransitRuntime"], path: "Tests/TestKit"),
        // The sample bundle, hand-made feeds and the store's download site, shared by the unit
        // test targets (public API only).
        .target(
            name: "TestSupport",
            dependencies: ["GTFSCompiler", "TransitRuntime", "TransitStore", "TransitSQLite", "BundleFormat", "TestKit"],
            path: "Tests/TestSupport"),
        // The unit tests, a target per part as Sources has them.
        .testTarget(
            name: "GTFSCompilerTests",
            dependencies: [
                "GTFSCompiler", "TransitRuntime", "BundleFormat", "TransitSQLite", "FileIntegrity", "PatchEngine", "CSQLite", "CZlib",
                "TestKit",
                "TestSupport",
            ]),
        .testTarget(
            name: "TransitRuntimeTests",
            dependencies: [
                "GTFSCompiler", "TransitRuntime", "TransitCities", "BundleFormat", "TransitSQLite", "PatchEngine", "CSQLite", "TestKit",
                "TestSupport",
            ]),
        .testTarget(
            name: "TransitRealtimeTests",
            dependencies: ["TransitRealtime", "TransitRuntime", "BundleFormat", "TransitSQLite", "TestKit", "TestSupport"]),
        .testTarget(
            name: "TransitStoreTests",
            dependencies: [
                "TransitStore", "TransitRuntime", "GTFSCompiler", "BundleFormat", "TransitSQLite", "FileIntegrity", "PatchEngine",
                "TestKit",
                "TestSupport",
            ]),
        .testTarget(
            name: "CommandLineToolTests",
            dependencies: [
                "GTFSCompiler", "TransitRuntime", "TransitCities", "TransitStore", "TransitRealtime", "TransitJSON", "BundleFormat",
                "TransitSQLite", "PatchEngine", "TestKit", "TestSupport", "ReadmeSnippets",
            ]),
        .testTarget(
            name: "TransitServerTests",
            dependencies: [
                "TransitServer", "TransitClient", "TransitCommands", "TransitRuntime", "TransitRealtime", "TransitStore", "GTFSCompiler",
                "TransitJSON", "TestKit", "TestSupport", "TransitSync", "SyncFormat",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "RealFeedTests",
            dependencies: [
                "GTFSCompiler", "TransitRuntime", "TransitStore", "BundleFormat", "TransitSQLite", "PatchEngine", "TestKit",
                "TransitRealtime",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
