import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// Two `reckon serve` replicas on one PostgreSQL database, the first killed with SIGKILL while
/// it sends to a slow App Store: the second takes the lead within seconds, and once the send
/// lease lapses, every reply the first had claimed or begun, each with the one body it was
/// decided with.
@Suite(
  .serialized,
  .enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct ReplicaKillTests {
  @Test func aReplicaKilledMidSendLeavesItsLeadAndItsRepliesToTheOther() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    // Slow answers keep sends on the wire, so the kill lands mid-send.
    standIn.respond { _ in
      usleep(200_000)
      return nil
    }
    let authority = try LocalCertificateAuthority()
    let url = try TestPostgres.freshDatabase()
    let folder = try ServeChild.workspace(
      standInURL, authority, name: "replicas", state: #"{"url": "\#(url)"}"#,
      sender: #"""
        {"sandboxRequestsPerSecond": 10, "sendLeaseSeconds": 10, "initialBackoffSeconds": 0.2,
         "maximumBackoffSeconds": 1}
        """#)
    let first = try ServeChild.launch(binary, folder: folder, logName: "first.log")
    let firstPort = try #require(await first.port(within: 30), "\(first.logText)")
    #expect(first.logText.contains(#""event":"lead_taken""#), "the first replica leads")
    let second = try ServeChild.launch(binary, folder: folder, logName: "second.log")
    _ = try #require(await second.port(within: 30), "\(second.logText)")
    #expect(!second.logText.contains(#""event":"lead_taken""#))
    // It says it follows, once, rather than nothing.
    let follows = await ServerFixture.eventually(within: 5) {
      second.logText.contains(#""event":"following""#)
    }
    #expect(follows, "\(second.logText)")
    #expect(!first.logText.contains(#""event":"following""#))

    let notices = try (0..<20).map { try ServeKillTests.notice(number: 500 + $0, authority) }
    let statuses = await ServeKillTests.post(notices.map(\.body), port: firstPort)
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
    let sending = await ServerFixture.eventually(within: 10) { standIn.requests.count >= 3 }
    #expect(sending)
    let killed = Date()
    await first.kill()

    let tookLead = await ServerFixture.eventually(within: 10) {
      second.logText.contains(#""event":"lead_taken""#)
    }
    #expect(tookLead, "the second replica took the lead: \(second.logText)")
    print("replica kill test: lead moved \(Date().timeIntervalSince(killed)) s after the kill")
    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let drained = try await ServerFixture.eventually(within: 40) {
      try store.entryCount(states: ["sent"]) == notices.count
    }
    print("replica kill test: all sent \(Date().timeIntervalSince(killed)) s after the kill")
    await second.terminate()
    let depth = try store.outboxDepth()
    #expect(drained, "\(depth); \(second.logText)")
    let received = Dictionary(grouping: standIn.requests, by: { $0.transactionId ?? "" })
    for entry in try store.entries(states: [], limit: 100) {
      let deliveries = received[entry.transactionId] ?? []
      #expect(deliveries.allSatisfy { $0.body == entry.body && $0.problem == nil })
      let accepted = deliveries.filter { $0.status == 202 }.count
      #expect(accepted >= 1)
      #expect(
        accepted <= 1 + entry.interruptedSends,
        "transaction \(entry.transactionId) accepted \(accepted) times")
    }
    #expect(Set(received.keys) == Set(notices.map(\.transactionId)))
  }
}
