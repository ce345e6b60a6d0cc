import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// `reckon serve` reports a facts file that no longer reads as a JSON log event, counted in
/// `/metrics`, not as a plain-text line its log pipeline cannot read.
@Suite(.serialized) struct FactsReloadLogTests {
  /// A `reckon serve` child on a workspace of its own, its facts file, and a way to post it a
  /// signed request for a transaction.
  struct Served {
    let child: ServeChild
    let port: Int
    let facts: URL
    let authority: LocalCertificateAuthority

    func post(transactionId: String = "2000000812345678") async throws -> Int? {
      var notification = SimulatedNotification()
      notification.bundleId = TestKey.bundleId
      notification.environment = "Sandbox"
      notification.appAppleId = nil
      notification.transactionId = transactionId
      return await ServeChild.post(try notification.body(signedBy: authority), port: port)
    }
  }

  /// Runs `body` with a served child named `name`, killed and its stand-in stopped after.
  static func withServed(_ name: String, _ body: (Served) async throws -> Void) async throws {
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: name)
    let child = try ServeChild.launch(try CrashRecoveryTests.reckonBinary(), folder: folder)
    defer { kill(child.pid, SIGKILL) }
    let port = try #require(await child.port(within: 20), "\(child.logText)")
    try await body(
      Served(
        child: child, port: port, facts: folder.appendingPathComponent("facts.json"),
        authority: authority))
  }

  @Test func aFactsFileThatFailsToReloadIsAJSONWarningEventAndAMetric() async throws {
    try await Self.withServed("facts-reload") { served in
      try await Self.aRefusedReloadIsLoggedAndCounted(served)
    }
  }

  private static func aRefusedReloadIsLoggedAndCounted(_ served: Served) async throws {
    let (child, facts) = (served.child, served.facts)
    let broken = try String(contentsOf: facts, encoding: .utf8)
      .replacingOccurrences(of: #""usage.consumed": "10%""#, with: #""usage.consumed": "140%""#)
    try broken.write(to: facts, atomically: true, encoding: .utf8)
    let status = try await served.post()
    let metrics = try await ServerFixture.get(port: served.port, "/metrics")
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

  /// While a source's lookups fail (its file no longer reads), the requests that need it wait,
  /// and `/healthz` says so, degraded and naming it; it is ok again once a lookup succeeds.
  @Test func aFactsFileThatNoLongerReadsMakesHealthDegradedUntilItReadsAgain() async throws {
    try await Self.withServed("facts-failing") { served in
      try await Self.healthSaysWhileTheFileDoesNotRead(served)
    }
  }

  private static func healthSaysWhileTheFileDoesNotRead(_ served: Served) async throws {
    let facts = served.facts
    func post(_ transactionId: String) async throws -> Int? {
      try await served.post(transactionId: transactionId)
    }
    func health() async throws -> [String: Any] {
      try #require(
        try JSONSerialization.jsonObject(
          with: Data(try await ServerFixture.get(port: served.port, "/healthz").utf8))
          as? [String: Any])
    }

    let good = try String(contentsOf: facts, encoding: .utf8)
    #expect(try await health()["status"] as? String == "ok")
    try #"{"byTransactionId": {"#.write(to: facts, atomically: true, encoding: .utf8)
    #expect(try await post("2000000900000001") == 200)
    let failing = try await health()
    #expect(failing["status"] as? String == "degraded", "\(failing)")
    #expect(failing["facts"] as? String == "failing", "\(failing)")
    #expect(failing["failingSources"] as? [String] == ["notes"], "\(failing)")

    try good.write(to: facts, atomically: true, encoding: .utf8)
    #expect(try await post("2000000900000002") == 200)
    let mended = try await health()
    #expect(mended["status"] as? String == "ok", "\(mended)")
    #expect(mended["failingSources"] == nil, "\(mended)")
    await served.child.terminate()
  }
}
