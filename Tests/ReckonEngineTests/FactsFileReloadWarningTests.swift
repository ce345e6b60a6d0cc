import Foundation
import ReckonEngine
import ReckonFacts
import ReckonTestSupport
import Synchronization
import Testing

/// A JSON facts file that changes and no longer reads is said once, where the caller says: as
/// an event for a service, as a sentence for a command; the library itself prints nothing.
struct FactsFileReloadWarningTests {
  @Test func aBrokenEditIsHandedToTheWarningOnce() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-facts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let facts = folder.appendingPathComponent("notes.json")
    try Data(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#.utf8).write(to: facts)
    try Data(
      #"""
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "factSources": [{"name": "notes", "type": "json", "path": "notes.json"}]}
      """#.utf8
    ).write(to: folder.appendingPathComponent("reckon.json"))
    let configuration = try ReckonConfiguration.load(
      path: folder.appendingPathComponent("reckon.json").path)
    let warnings = Mutex<[String]>([])
    let setup = try FactSourceSetup(
      configuration.factSources, warn: { line in warnings.withLock { $0.append(line) } })
    let source = try #require(setup.layers.first?.source)
    try Data(#"{"byTransactionId": {"1": {"usage.consumed": "140%"}}}"#.utf8).write(to: facts)
    let keys = RequestKeys(
      transactionId: "1", originalTransactionId: nil, appAccountToken: nil, productId: nil,
      bundleId: nil)
    for _ in 0..<2 { _ = try? await source.facts(for: keys) }
    let said = warnings.withLock { $0 }
    #expect(said.count == 1, "\(said)")
    #expect(said.first?.hasPrefix("facts file does not read since it changed") == true)
    #expect(said.first?.contains("'140%' is not a percent") == true)
  }
}
