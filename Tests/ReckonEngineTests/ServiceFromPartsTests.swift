import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonStateSQLite
import ReckonSupport
import Testing

/// What reckon.json refuses is refused from parts too: a service of no app, fact sources of one
/// name or of a name Reckon gives its own facts, a timeout that is not above zero.
struct ServiceFromPartsTests {
  /// A Sandbox app that declines every request, for a service whose apps are not the point.
  static let sandboxApp = ReckonService.App(
    bundleId: "com.example.retention", appAppleId: nil, environment: .sandbox,
    policy: .text(name: "p", "otherwise refund DECLINE"))

  @Test func aServiceFromPartsWithNoAppIsRefused() throws {
    let state = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(apps: [], factSources: [], state: state)
    }
    guard case .configuration(let refusal)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(refusal.key == "apps")
    #expect(refusal.problem.hasPrefix("must list at least one app"))
  }

  /// A second source of one name, or one named as Reckon's own facts, would make a fact's
  /// provenance ambiguous; a timeout of zero would time every lookup out.
  @Test(arguments: [
    (["app-db", "app-db"], [2_000, 2_000], "factSources[1]", "is used by another fact source"),
    (["records"], [2_000], "factSources[0]", "names the facts Reckon gives itself"),
    (["crm"], [0], "factSources[0]", "it must be above zero"),
  ])
  func aServiceFromPartsRefusesSourcesTheConfigurationWould(
    names: [String], timeouts: [Int], key: String, problem: String
  ) throws {
    let state = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    let layers = zip(names, timeouts).map { name, milliseconds in
      LayeredFactSource.Layer(NamedSource(name: name), timeout: .milliseconds(milliseconds))
    }
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(
        apps: [ServiceFromPartsTests.sandboxApp], factSources: layers, state: state)
    }
    guard case .configuration(let refusal)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(refusal.key == key)
    #expect(refusal.problem.contains(problem), "\(refusal.problem)")
  }

  /// A source that knows nothing, by any name.
  struct NamedSource: FactSource {
    let name: String
    func facts(for keys: RequestKeys) async throws -> [String: Value] { [:] }
  }
}
