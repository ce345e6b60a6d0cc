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
}
