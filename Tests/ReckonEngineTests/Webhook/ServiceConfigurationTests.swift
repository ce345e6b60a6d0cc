import Foundation
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// A service built from reckon.json names the key of a policy file it cannot read, as it names
/// every other start-up problem in the file.
struct ServiceConfigurationTests {
  @Test func aPolicyFileThatCannotBeReadIsNamedByItsKey() throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-svc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("reckon.json")
    try Data(
      #"""
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "missing.policy"}],
       "state": {"path": "state.sqlite"}}
      """#.utf8
    ).write(to: config)
    let configuration = try ReckonConfiguration.load(path: config.path)
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(configuration: configuration)
    }
    guard case .configuration(let problem)? = error else {
      Issue.record("expected a configuration error, got \(String(describing: error))")
      return
    }
    #expect(problem.key == "apps[0].policy")
    #expect(problem.problem.hasSuffix("missing.policy: no such file"), "\(problem.problem)")
  }

  /// A service from parts refuses what reckon.json refuses: a Production app without its App
  /// Apple ID (whose check was then skipped) and an app listed twice (whose first policy was
  /// silently dropped). Nothing is opened before.
  @Test(arguments: [
    (
      [
        ReckonService.App(
          bundleId: "com.example", appAppleId: nil, environment: .production,
          policy: .text(name: "p", "otherwise share data only"))
      ],
      "apps[0].appAppleId"
    ),
    (
      [
        ReckonService.App(
          bundleId: "com.example", appAppleId: nil, environment: .sandbox,
          policy: .text(name: "p", "otherwise share data only")),
        ReckonService.App(
          bundleId: "com.example", appAppleId: nil, environment: .sandbox,
          policy: .text(name: "q", "otherwise share data only")),
      ],
      "apps[1]"
    ),
  ])
  func aServiceFromPartsRefusesWhatTheConfigurationRefuses(
    _ apps: [ReckonService.App], _ key: String
  ) {
    let statePath = TestScratch.folder.appendingPathComponent("svc-\(UUID().uuidString).sqlite")
      .path
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(apps: apps, factSources: [], statePath: statePath)
    }
    guard case .configuration(let problem)? = error else {
      Issue.record("expected a configuration error, got \(String(describing: error))")
      return
    }
    #expect(problem.key == key, "\(problem)")
    #expect(!FileManager.default.fileExists(atPath: statePath))
  }
}
