import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonStateSQLite
import ReckonSupport
import Testing

/// `state.keepDays` in `reckon.json`: how many days of records `reckon serve` keeps, refused
/// below the week Apple may send a notification again.
struct StateRetentionConfigurationTests {
  static func load(_ state: String) throws(ConfigurationError) -> ReckonConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "state": \(state)}
      """
    let root = (try? JSONValue.parse(Data(text.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
  }

  @Test(arguments: [(#"{}"#, nil), (#"{"keepDays": 365}"#, 365), (#"{"keepDays": 7}"#, 7)])
  func keepDaysIsReadOrLeftOut(state: String, days: Int?) throws {
    #expect(try Self.load(state).stateKeepDays == days)
  }

  @Test(arguments: [#"{"keepDays": 6}"#, #"{"keepDays": 30.5}"#, #"{"keepDays": 40000}"#])
  func keepDaysOutsideAWeekToACenturyIsRefusedAtItsKey(state: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.load(state) }
    #expect(error?.key == "state.keepDays")
    #expect(error?.problem.contains("from 7 to 36500") == true, "\(String(describing: error))")
  }

  @Test(arguments: [3, 40_000])
  func aServiceFromPartsRefusesWhatTheConfigurationRefuses(days: Int) throws {
    let state = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    let error = #expect(throws: ReckonServiceError.self) {
      try ReckonService(
        apps: [ServiceFromPartsTests.sandboxApp], factSources: [], state: state, keepDays: days)
    }
    guard case .configuration(let refusal)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(refusal.key == "state.keepDays")
  }
}
