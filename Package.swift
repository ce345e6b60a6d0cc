// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "Reckon",
  // Synchronization's Mutex and Atomic, which the engine's locks use, need macOS 15.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "ReckonSupport", targets: ["ReckonSupport"]),
    .library(name: "ReckonPolicy", targets: ["ReckonPolicy"]),
    .library(name: "ReckonAppStore", targets: ["ReckonAppStore"]),
    .library(name: "ReckonGooglePlay", targets: ["ReckonGooglePlay"]),
    .library(name: "ReckonHTTP", targets: ["ReckonHTTP"]),
    .library(name: "ReckonFacts", targets: ["ReckonFacts"]),
    .library(name: "ReckonState", targets: ["ReckonState"]),
    .library(name: "ReckonStateSQLite", targets: ["ReckonStateSQLite"]),
    .library(name: "ReckonStatePostgres", targets: ["ReckonStatePostgres"]),
    .library(name: "ReckonEngine", targets: ["ReckonEngine"]),
    .library(name: "ReckonTools", targets: ["ReckonTools"]),
    .library(name: "ReckonServer", targets: ["ReckonServer"]),
    .executable(name: "reckon", targets: ["reckon"]),
    .executable(name: "reckon-bench", targets: ["reckon-bench"]),
  ],
  targets: [
    // pkg-config finds Homebrew's keg-only OpenSSL and libpq on macOS (with PKG_CONFIG_PATH
    // set to their lib/pkgconfig folders), and the system's own folders on Linux.
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "COpenSSL", pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
    .systemLibrary(
      name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(
      name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    // posix_spawn's close-from and working-folder actions, which Swift's Glibc module leaves out;
    // ReckonTestSupport starts child processes with them.
    .target(name: "CSpawn"),
    .target(name: "ReckonSupport"),
    .target(name: "ReckonSQLite", dependencies: ["CSQLite"]),
    .target(name: "ReckonPolicy", dependencies: ["ReckonSupport"]),
    // What the tests, fault runs and benchmarks share (seeded randomness, Apple's fixtures and
    // test key, sample state records, raw loopback sockets); not part of any product.
    .target(
      name: "ReckonTestSupport",
      dependencies: [
        "ReckonSupport", "ReckonHTTP", "ReckonAppStore", "ReckonState", "ReckonStateSQLite",
        "ReckonStatePostgres", "ReckonStandIn", "ReckonEngine", "ReckonGooglePlay", "CSpawn",
      ]),
    .target(name: "ReckonAppStore", dependencies: ["ReckonSupport", "COpenSSL"]),
    .target(name: "ReckonGooglePlay", dependencies: ["ReckonSupport", "COpenSSL"]),
    .target(name: "ReckonHTTP", dependencies: ["ReckonSupport", "CCurl"]),
    .target(
      name: "ReckonFacts",
      dependencies: ["ReckonSupport", "ReckonPolicy", "ReckonSQLite", "CSQLite"]),
    .target(name: "ReckonState", dependencies: ["ReckonSupport", "CZlib", "CZstd"]),
    .target(
      name: "ReckonStateSQLite",
      dependencies: ["ReckonSupport", "ReckonState", "ReckonSQLite", "CSQLite"]),
    .target(
      name: "ReckonStatePostgres", dependencies: ["ReckonSupport", "ReckonState", "CLibPQ"]),
    .target(
      name: "ReckonEngine",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonGooglePlay", "ReckonFacts",
        "ReckonState",
      ]),
    .target(
      name: "ReckonTools",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonGooglePlay", "ReckonFacts",
        "ReckonState", "ReckonEngine",
      ]),
    .target(
      name: "ReckonServer",
      dependencies: [
        "ReckonSupport", "ReckonAppStore", "ReckonGooglePlay", "ReckonState", "ReckonEngine",
        "ReckonHTTP",
      ]),
    .target(
      name: "ReckonStandIn",
      dependencies: ["ReckonSupport", "ReckonHTTP", "ReckonAppStore", "ReckonGooglePlay"]),
    // The framework examples of docs/embedding.md, compiled on every build against stand-ins of
    // the frameworks' route and lifecycle types (no outside package can be fetched), so an API
    // change that breaks them fails the build. Not part of any product.
    .target(name: "VaporStandIn", path: "examples/embedding/StandIns/Vapor"),
    .target(name: "HummingbirdStandIn", path: "examples/embedding/StandIns/Hummingbird"),
    .target(
      name: "EmbeddingExampleVapor",
      dependencies: [
        "ReckonEngine", "ReckonHTTP", "ReckonStateSQLite", "VaporStandIn",
      ],
      path: "examples/embedding/Vapor"),
    .target(
      name: "EmbeddingExampleHummingbird",
      dependencies: [
        "ReckonEngine", "ReckonHTTP", "ReckonStateSQLite", "HummingbirdStandIn",
      ],
      path: "examples/embedding/Hummingbird"),
    .executableTarget(
      name: "reckon",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonState",
        "ReckonStateSQLite", "ReckonStatePostgres", "ReckonEngine",
        "ReckonTools", "ReckonHTTP", "ReckonServer", "ReckonStandIn", "ReckonGooglePlay",
      ]),
    .executableTarget(
      name: "reckon-bench",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonSQLite",
        "ReckonState", "ReckonStateSQLite", "ReckonStatePostgres", "ReckonEngine", "ReckonTools",
        "ReckonHTTP", "ReckonServer", "ReckonStandIn", "ReckonTestSupport",
      ]),
    .testTarget(
      name: "ReckonSupportTests", dependencies: ["ReckonSupport", "ReckonTestSupport"]),
    .testTarget(
      name: "ReckonHTTPTests",
      dependencies: ["ReckonSupport", "ReckonHTTP", "ReckonAppStore", "ReckonTestSupport"]),
    .testTarget(
      name: "ReckonStateTests",
      dependencies: [
        "ReckonSupport", "ReckonAppStore", "ReckonState", "ReckonStateSQLite",
        "ReckonStatePostgres", "ReckonEngine", "ReckonTestSupport", "CZstd",
      ]),
    .testTarget(
      name: "ReckonStatePostgresTests",
      dependencies: [
        "ReckonSupport", "ReckonState", "ReckonStatePostgres", "ReckonTestSupport",
      ]),
    .testTarget(
      name: "ReckonStateSQLiteTests",
      dependencies: [
        "ReckonSupport", "ReckonAppStore", "ReckonSQLite", "ReckonState", "ReckonStateSQLite",
        "ReckonTestSupport",
      ]),
    .testTarget(
      name: "ReckonPolicyTests",
      dependencies: ["ReckonSupport", "ReckonPolicy", "ReckonTestSupport"]),
    .testTarget(
      name: "ReckonAppStoreTests",
      dependencies: ["ReckonSupport", "ReckonAppStore", "ReckonStandIn", "ReckonTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "ReckonGooglePlayTests",
      dependencies: [
        "ReckonSupport", "ReckonGooglePlay", "ReckonHTTP", "ReckonStandIn", "ReckonTestSupport",
      ]),
    .testTarget(
      name: "ReckonStandInTests",
      dependencies: ["ReckonSupport", "ReckonAppStore", "ReckonStandIn", "ReckonTestSupport"]),
    .testTarget(
      name: "ReckonEngineTests",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonGooglePlay", "ReckonFacts",
        "ReckonSQLite",
        "ReckonState", "ReckonStateSQLite", "ReckonEngine", "ReckonTools", "ReckonHTTP",
        "ReckonStandIn", "ReckonTestSupport",
      ]),
    .testTarget(
      name: "ReckonFactsTests",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonEngine",
        "ReckonSQLite", "CSQLite", "ReckonTestSupport",
      ],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "ReckonToolsTests",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonSQLite",
        "ReckonState", "ReckonStateSQLite", "ReckonEngine", "ReckonTools", "ReckonHTTP",
        "ReckonStandIn", "ReckonTestSupport", "ReckonGooglePlay",
      ]),
    .testTarget(
      name: "ReckonServerTests",
      dependencies: [
        "ReckonSupport", "ReckonPolicy", "ReckonAppStore", "ReckonGooglePlay", "ReckonFacts",
        "ReckonState",
        "ReckonStateSQLite", "ReckonStatePostgres", "ReckonEngine",
        "ReckonTools", "ReckonHTTP", "ReckonServer", "ReckonStandIn", "ReckonSQLite",
        "ReckonTestSupport",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "ReckonCLITests",
      dependencies: [
        "ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonState", "ReckonStateSQLite",
        "ReckonStatePostgres", "ReckonEngine", "ReckonTools", "ReckonHTTP", "ReckonSQLite",
        "ReckonTestSupport",
      ],
      exclude: ["Snapshots", "Fixtures"]),
  ]
)

// Swift 6 language mode and the same strictness for every target.
for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
