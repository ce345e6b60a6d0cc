import Foundation
import ReckonAppStore
import ReckonServer
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Signed notifications in over real HTTP, replies out at the App Store stand-in.
@Suite struct WebhookEndToEndTests {
  @Test func aSignedRequestIsAnsweredAndItsReplyReachesTheStandIn() async throws {
    let fixture = try ServerFixture()
    let (status, answer) = try await fixture.post(try fixture.body())
    #expect(status == 200)
    #expect(answer.contains(#""result":"decided""#))
    let arrived = await ServerFixture.eventually { fixture.standIn.requests.count == 1 }
    await fixture.stop()
    #expect(arrived)
    let received = try #require(fixture.standIn.requests.first)
    #expect(received.status == 202)
    #expect(received.problem == nil)
    #expect(received.transactionId == "2000000812345678")
    #expect(
      String(decoding: received.body, as: UTF8.self).contains(#""refundPreference":"DECLINE""#))
    #expect(try fixture.service.store.entries().first?.state.name == "sent")
  }

  @Test func theSameNotificationThreeTimesIsAnswered200AndSentOnce() async throws {
    let fixture = try ServerFixture()
    let body = try fixture.body()
    for _ in 0..<3 { #expect(try await fixture.post(body).0 == 200) }
    _ = await ServerFixture.eventually { fixture.standIn.requests.count >= 1 }
    try await Task.sleep(nanoseconds: 300_000_000)
    await fixture.stop()
    #expect(fixture.standIn.requests.count == 1)
    #expect(try fixture.service.store.entries().count == 1)
  }

  @Test func theSameRequestUnderANewUUIDIsAnsweredByTheFirstDecisionAndSentOnce() async throws {
    let fixture = try ServerFixture()
    var first = ServerFixture.notification()
    first.signedDate = Date().addingTimeInterval(-5)
    _ = try await fixture.post(try fixture.body(first))
    let (status, answer) = try await fixture.post(try fixture.body())
    #expect(status == 200)
    #expect(answer.contains(#""result":"repeated""#))
    _ = await ServerFixture.eventually { fixture.standIn.requests.count >= 1 }
    try await Task.sleep(nanoseconds: 300_000_000)
    await fixture.stop()
    #expect(fixture.standIn.requests.count == 1)
    #expect(
      fixture.standIn.requests.first.map { String(decoding: $0.body, as: UTF8.self) }?.contains(
        "DECLINE") == true)
  }

  @Test func aForgedNotificationIsRefusedAndNothingIsSent() async throws {
    let fixture = try ServerFixture()
    let forger = try LocalCertificateAuthority(name: "Forger")
    let (status, answer) = try await fixture.post(
      try ServerFixture.notification().body(signedBy: forger))
    try await Task.sleep(nanoseconds: 200_000_000)
    await fixture.stop()
    #expect(status == 403)
    #expect(answer.contains("not trusted"))
    #expect(fixture.standIn.requests.isEmpty)
    #expect(
      try fixture.service.store.requestCount(
        transactionId: "2000000812345678", before: .distantFuture) == 0)
  }

  @Test func aStateDatabaseThatCannotBeWrittenAnswers500SoAppleRetries() async throws {
    let fixture = try ServerFixture()
    let store = try #require(fixture.service.store as? SQLiteStateStore)
    try store.locked { () throws(StateError) in
      try store.connection.execute("PRAGMA query_only = 1")
    }
    let (status, answer) = try await fixture.post(try fixture.body())
    await fixture.stop()
    #expect(status == 500)
    #expect(answer.contains("recording_failed"))
    // SQLite's reason is the operator's, in the log; whoever posted learns only to retry.
    #expect(!answer.contains("readonly") && !answer.contains("INSERT"), "\(answer)")
    #expect(answer.contains("try again later"))
    #expect(
      fixture.logLines.all.contains { $0.contains("recording_failed") && $0.contains("readonly") },
      "\(fixture.logLines.all)")
    // The answered line says who posted, as the connection's peer.
    #expect(
      fixture.logLines.all.contains {
        $0.contains(#""event":"answered""#) && $0.contains(#""client":"127.0.0.1:"#)
      }, "\(fixture.logLines.all)")
  }

  @Test func healthAndMetricsDescribeTheService() async throws {
    let fixture = try ServerFixture()
    _ = try await fixture.post(try fixture.body())
    _ = try await fixture.post(Data("not json".utf8))
    _ = await ServerFixture.eventually { fixture.standIn.requests.count == 1 }
    _ = await ServerFixture.eventually {
      fixture.metrics.render(state: StateGauges()).contains(#"reckon_sends_total{result="sent"} 1"#)
    }
    // The gauges are read every 50 ms here: long enough for a reading after the send.
    try await Task.sleep(nanoseconds: 250_000_000)
    let (healthStatus, health) = try await fixture.get("/healthz")
    let (metricsStatus, metrics) = try await fixture.get("/metrics")
    let (missing, _) = try await fixture.get("/nowhere")
    let (wrongMethod, _) = try await fixture.get("/apple/notifications")
    await fixture.stop()
    #expect(healthStatus == 200)
    #expect(health.contains(#""status":"ok""#))
    #expect(health.contains(#""outboxOverdue":0,"undecided":0"#), "\(health)")
    #expect(health.contains(#""role":"leader""#), "one instance on SQLite leads")
    #expect(health.contains(#""outboxDueLagSeconds":0"#), "\(health)")
    #expect(metricsStatus == 200)
    for line in [
      #"reckon_webhook_requests_total{type="CONSUMPTION_REQUEST",verdict="decided",status="200"} 1"#,
      #"reckon_webhook_requests_total{type="unknown",verdict="refused",status="400"} 1"#,
      #"reckon_decisions_total{action="respond",rule="otherwise"} 1"#,
      #"reckon_sends_total{result="sent"} 1"#,
      #"reckon_outbox_entries{state="sent"} 1"#,
      "reckon_webhook_latency_seconds_count 2",
      "# TYPE reckon_webhook_latency_seconds histogram",
    ] {
      #expect(metrics.contains(line), "missing: \(line)")
    }
    #expect(missing == 404)
    #expect(wrongMethod == 405)
    let logged = fixture.logLines.all
    #expect(logged.contains { $0.contains(#""event":"decided""#) })
    #expect(logged.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
  }
}
