import Foundation
import ReckonAppStore
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// `state.durability` in `reckon.json`: every commit pushed to disk (`full`, surviving a power
/// loss) or, by default, as WAL's `normal` does; the service opens its store that way.
struct StateDurabilityConfigurationTests {
  @Test(arguments: [
    (#"{}"#, StateDurability.normal), (#"{"durability": "normal"}"#, .normal),
    (#"{"durability": "full"}"#, .full),
  ])
  func durabilityIsReadOrNormal(state: String, durability: StateDurability) throws {
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

  /// Built from reckon.json, the service opens its store as `state.durability` says; without
  /// it, as WAL's `normal` does.
  @Test(arguments: [(#", "durability": "full""#, Int64(2)), ("", 1)])
  func theServiceFromTheConfigurationCommitsAsItSays(durability: String, synchronous: Int64)
    throws
  {
    let folder = TestScratch.folder.appendingPathComponent("reckon-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("otherwise share data only\n".utf8).write(
      to: folder.appendingPathComponent("a.policy"))
    let config = folder.appendingPathComponent("reckon.json")
    try Data(
      """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "state": {"path": "state.sqlite"\(durability)}}
      """.utf8
    ).write(to: config)
    let service = try ReckonService(
      configuration: try ReckonConfiguration.load(path: config.path),
      state: SQLiteStateOpener(), transport: nil)
    let store = try #require(service.store as? SQLiteStateStore)
    let mode = try store.connection.query("PRAGMA synchronous").first?.int(0)
    #expect(mode == synchronous)
  }
}
