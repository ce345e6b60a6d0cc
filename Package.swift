// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "Reckon",
  products: [
    .library(name: "ReckonPolicy", targets: ["ReckonPolicy"]),
    .library(name: "ReckonAppStore", targets: ["ReckonAppStore"]),
    .library(name: "ReckonFacts", targets: ["ReckonFacts"]),
    .library(name: "ReckonEngine", targets: ["ReckonEngine"]),
    .library(name: "ReckonServer", targets: ["ReckonServer"]),
    .executable(name: "reckon", targets: ["reckon"]),
    .executable(name: "reckon-bench", targets: ["reckon-bench"]),
  ],
  targets: [
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(name: "ReckonSQLite", dependencies: ["CSQLite"]),
    .target(name: "ReckonPolicy"),
    // Seeded randomness shared by the tests, fault runs and benchmarks; not part of any product.
    .target(name: "ReckonTestSupport"),
    .target(name: "ReckonAppStore", dependencies: ["COpenSSL", "CCurl"]),
    .target(name: "ReckonFacts", dependencies: ["ReckonPolicy", "ReckonAppStore", "ReckonSQLite", "CSQLite"]),
    .target(name: "ReckonEngine", dependencies: ["ReckonPolicy", "ReckonAppStore", "ReckonFacts", "ReckonSQLite", "CSQLite"]),
    .target(name: "ReckonServer", dependencies: ["ReckonEngine"]),
    .target(name: "ReckonStandIn", dependencies: ["ReckonServer", "ReckonAppStore", "COpenSSL"]),
    .executableTarget(name: "reckon", dependencies: ["ReckonEngine", "ReckonServer", "ReckonStandIn"]),
    .executableTarget(name: "reckon-bench", dependencies: ["ReckonEngine", "ReckonStandIn", "ReckonTestSupport"]),
    .testTarget(name: "ReckonPolicyTests", dependencies: ["ReckonPolicy", "ReckonTestSupport"], exclude: ["Snapshots"]),
    .testTarget(name: "ReckonAppStoreTests", dependencies: ["ReckonAppStore", "ReckonTestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(name: "ReckonEngineTests", dependencies: ["ReckonEngine", "ReckonTestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(name: "ReckonFactsTests", dependencies: ["ReckonFacts", "ReckonEngine", "ReckonSQLite", "ReckonTestSupport"]),
    .testTarget(name: "ReckonServerTests", dependencies: ["ReckonServer", "ReckonStandIn", "ReckonSQLite", "ReckonTestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(name: "ReckonCLITests", dependencies: ["ReckonEngine", "ReckonTestSupport"], exclude: ["Snapshots", "Fixtures"]),
  ]
)

// Swift 6 language mode and the same strictness for every target.
for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
