import Foundation
import ReckonAppStore
import Testing

@testable import ReckonEngine

/// `state.durability` in `reckon.json`: every commit pushed to disk (`full`, surviving a power
/// loss) or, by default, as WAL's `normal` does; the service opens its store that way.
struct StateDurabilityConfigurationTests {
  @Test(arguments: [
    (#"{}"#, StateStore.Durability.normal), (#"{"durability": "normal"}"#, .normal),
    (#"{"durability": "full"}"#, .full),
  ])
  func durabilityIsReadOrNormal(state: String, durability: StateStore.Durability) throws {
    #expect(try StateRetentionConfigurationTests.load(state).stateDurability == durability)
  }

  @Test(arguments: [#"{"durability": "fast"}"#, #"{"durability": "FULL"}"#])
  func anotherDurabilityIsRefusedAtItsKey(state: String) {
    let error = #expect(throws: ConfigurationError.self) {
      try StateRetentionConfigurationTests.load(state)
    }
    #expect(error?.key == "state.durability")
    #expect(error?.problem.contains(#"is "normal" or "full""#) == true)
  }

  @Test(arguments: [(StateStore.Durability.full, Int64(2)), (.normal, 1)])
  func theServiceCommitsAsConfigured(durability: StateStore.Durability, synchronous: Int64) throws {
    let service = try ReckonService(
      apps: [], factSources: [], statePath: TestState.temporaryPath(), durability: durability)
    let mode = try service.store.connection.query("PRAGMA synchronous").first?.int(0)
    #expect(mode == synchronous)
  }
}
