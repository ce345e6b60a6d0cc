import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// `reckon serve` reports a facts file that no longer reads as a JSON log event, counted in
/// `/metrics`, not as a plain-text line its log pipeline cannot read.
@Suite(.serialized) struct FactsReloadLogTests {
  @Test func aFactsFileThatFailsToReloadIsAJSONWarningEventAndAMetric() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "facts-reload")
    let child = try ServeChild.launch(binary, folder: folder)
    defer { kill(child.pid, SIGKILL) }
    let port = try #require(await child.port(within: 20), "\(child.logText)")

    let facts = folder.appendingPathComponent("facts.json")
    let broken = try String(contentsOf: facts, encoding: .utf8)
      .replacingOccurrences(of: #""usage.consumed": "10%""#, with: #""usage.consumed": "140%""#)
    try broken.write(to: facts, atomically: true, encoding: .utf8)
    var notification = SimulatedNotification()
    notification.bundleId = TestKey.bundleId
    notification.environment = "Sandbox"
    notification.appAppleId = nil
    let status = await ServeChild.post(try notification.body(signedBy: authority), port: port)
    let metrics = try await ServerFixture.get(port: port, "/metrics")
    await child.terminate()

    let log = child.logText
    #expect(status == 200)
    #expect(!log.contains("reckon: facts file not reloaded"), "\(log)")
    let lines = log.split(separator: "\n")
    #expect(
      lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil },
      "\(log)")
    let refused = try #require(
      lines.lazy.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { $0["event"] as? String == "facts_reload_refused" }, "\(log)")
    #expect(refused["level"] as? String == "warning")
    #expect(refused["source"] as? String == "notes")
    #expect(refused["path"] as? String == facts.path)
    #expect((refused["problem"] as? String)?.contains("usage.consumed") == true, "\(refused)")
    #expect((refused["message"] as? String)?.contains(facts.path) == true, "\(refused)")
    #expect(
      metrics.contains(#"reckon_facts_reloads_refused_total{source="notes"} 1"#), "\(metrics)")
  }
}
