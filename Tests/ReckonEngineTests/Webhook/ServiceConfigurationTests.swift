import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// Opens the SQLite state as `reckon serve` does, and remembers whether it was asked to.
final class WatchedStateOpener: StateOpener, @unchecked Sendable {
  private let lock = NSLock()
  private var asked: ReplyRules?

  /// Whether `open` was called.
  var opened: Bool { lock.withLock { asked != nil } }
  /// The rules `open` was handed.
  var rules: ReplyRules? { lock.withLock { asked } }

  func check(location: String) throws(StateError) {
    try SQLiteStateOpener().check(location: location)
  }

  func takeSenderLease(location: String) throws(SenderLockError) -> any SenderLease {
    try SQLiteStateOpener().takeSenderLease(location: location)
  }

  func open(
    location: String, durability: StateDurability, rules: ReplyRules, access: StateAccess
  ) throws(StateError) -> any StateStore {
    lock.withLock { asked = rules }
    return try SQLiteStateOpener().open(
      location: location, durability: durability, rules: rules, access: access)
  }
}

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
    let opener = WatchedStateOpener()
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(configuration: configuration, state: opener, transport: nil)
    }
    // Refused before the state is opened, so no state file is left behind.
    #expect(!opener.opened)
    guard case .configuration(let problem)? = error else {
      Issue.record("expected a configuration error, got \(String(describing: error))")
      return
    }
    #expect(problem.key == "apps[0].policy")
    #expect(problem.problem.hasSuffix("missing.policy: no such file"), "\(problem.problem)")
  }

  /// A service from parts refuses what reckon.json refuses: a Production app without its App
  /// Apple ID (whose check was then skipped) and an app listed twice (whose first policy was
  /// silently dropped).
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
  ) throws {
    let state = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(apps: apps, factSources: [], state: state)
    }
    guard case .configuration(let problem)? = error else {
      Issue.record("expected a configuration error, got \(String(describing: error))")
      return
    }
    #expect(problem.key == key, "\(problem)")
  }

  /// An embedder can use reckon.json and still bring a fact source and a sender of its own:
  /// its source is asked first, and its sender replaces the (here unconfigured) App Store one.
  @Test func aServiceFromTheConfigurationTakesYourOwnFactSourceAndSender() throws {
    struct Mine: FactSource {
      let name = "mine"
      func facts(for keys: RequestKeys) async throws -> [String: Value] { [:] }
    }
    struct Quiet: ConsumptionSender {
      func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
        -> ConsumptionDelivery
      { .networkError("not sent in tests") }
    }
    let (folder, config) = try Self.folder(
      #"""
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "factSources": [{"name": "notes", "type": "json", "path": "notes.json"}],
       "state": {"path": "state.sqlite"}}
      """#)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("{}".utf8).write(to: folder.appendingPathComponent("notes.json"))
    var warnings: [String] = []
    let service = try ReckonService(
      configuration: try ReckonConfiguration.load(path: config.path),
      state: SQLiteStateOpener(), transport: nil,
      factSources: [.init(Mine(), timeout: .seconds(1))], sender: Quiet(),
      warn: { warnings.append($0) })
    #expect(service.pipeline.gatherer.sources.layers.map(\.source.name) == ["mine", "notes"])
    #expect(service.sender != nil)
    #expect(warnings.isEmpty, "\(warnings)")
  }

  /// The state records requests by the stores' rules: the service hands them to whichever
  /// backend the configuration names, so no backend spells them itself.
  @Test func theServiceOpensTheStateWithBothStoresReplyRules() throws {
    let (folder, config) = try Self.folder(
      #"""
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "state": {"path": "state.sqlite"}}
      """#)
    defer { try? FileManager.default.removeItem(at: folder) }
    let opener = WatchedStateOpener()
    _ = try ReckonService(
      configuration: try ReckonConfiguration.load(path: config.path), state: opener,
      transport: nil)
    #expect(opener.rules == .stores)
    #expect(opener.rules?.requestTypes == ["CONSUMPTION_REQUEST", "PENDING_REFUND_REVIEW"])
  }

  /// A new folder holding `p.policy` (a policy that shares data only) and `reckon.json` with
  /// `configuration`; the folder and the configuration file.
  static func folder(_ configuration: String) throws -> (URL, URL) {
    let folder = TestScratch.folder.appendingPathComponent("reckon-svc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("otherwise share data only\n".utf8).write(
      to: folder.appendingPathComponent("p.policy"))
    let config = folder.appendingPathComponent("reckon.json")
    try Data(configuration.utf8).write(to: config)
    return (folder, config)
  }
}
