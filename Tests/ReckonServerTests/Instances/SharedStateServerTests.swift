import Foundation
import ReckonAppStore
import ReckonServer
import ReckonStandIn
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// Several `WebhookServer`s on one PostgreSQL database, as replicas behind a load balancer:
/// every copy of a notification answered, each recorded and replied to once, the sending
/// shared, and one of them leading the once-only work.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct SharedStateServerTests {
  /// `count` servers on one new database, sending to one stand-in at `perSecond` each.
  static func replicas(_ count: Int, perSecond: Double) throws -> (
    [ServerFixture], url: String
  ) {
    let url = try TestPostgres.freshDatabase()
    let authority = try LocalCertificateAuthority()
    let shared = try TestKey.standIn()
    let fixtures = try (0..<count).map { _ in
      try ServerFixture(
        state: PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore),
        authority: authority, sharing: shared, sandboxPerSecond: perSecond)
    }
    return (fixtures, url)
  }

  static func stop(_ fixtures: [ServerFixture]) async {
    for fixture in fixtures { await fixture.stop() }
    await ServerFixture.offPool { [standIn = fixtures[0].standIn] in standIn.shutdown() }
  }

  @Test func copiesPostedToEveryReplicaAreAnsweredAndRepliedToOnce() async throws {
    let rate = 20.0
    let (replicas, url) = try Self.replicas(3, perSecond: rate)
    let transactions = (0..<90).map { "20000009\(String(format: "%08d", $0))" }
    let bodies = try transactions.map {
      try replicas[0].body(ServerFixture.notification(transaction: $0))
    }
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for body in bodies {
        for replica in replicas { group.addTask { try await replica.post(body).0 } }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses.count == 270)
    #expect(statuses.allSatisfy { $0 == 200 }, "\(Set(statuses))")
    let standIn = replicas[0].standIn
    let arrived = await ServerFixture.eventually(within: 30) {
      standIn.requests.count >= transactions.count
    }
    #expect(arrived, "\(standIn.requests.count) replies reached the stand-in")
    // Long enough for a second copy of any reply to show.
    try await Task.sleep(nanoseconds: 500_000_000)
    let puts = standIn.requests.filter { $0.method == "PUT" }
    #expect(puts.count == transactions.count)
    #expect(Set(puts.compactMap(\.transactionId)) == Set(transactions), "each reply went once")
    #expect(puts.allSatisfy { $0.status == 202 }, "\(puts.filter { $0.status != 202 })")
    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    // Shown, not asserted: these replicas' senders run on the test runner's two pool threads
    // beside every other suite, and a starved pool wakes them past any jitter allowance. The
    // rate the replicas keep together is asserted by ReplicaFaultTests, whose replicas are
    // processes of their own, and the shared pace's slots by PostgresSharedStateTests.
    let starts = try store.entries(states: []).flatMap { try store.attempts(entryId: $0.id) }
      .map(\.startedAt)
    print(
      "shared rate: busiest second of starts \(busiestSecond(starts)), of the stand-in's log "
        + "\(busiestSecond(puts.map(\.receivedAt))), limit \(Int(rate))")
    #expect(try store.storedRequests(since: nil, until: nil).count == transactions.count)
    #expect(try store.entryCount(states: ["sent"]) == transactions.count)
    let senders = replicas.filter {
      $0.metrics.render(state: nil).contains(#"reckon_sends_total{result="sent"}"#)
    }
    #expect(senders.count >= 2, "the replicas shared the sending")
    #expect(replicas.filter { $0.server.isLeader }.count == 1)
    await Self.stop(replicas)
  }

  @Test func theLeadMovesToAnotherReplicaWhenItsHolderStops() async throws {
    let (replicas, _) = try Self.replicas(3, perSecond: 20)
    let leaders = replicas.filter { $0.server.isLeader }
    #expect(leaders.count == 1)
    guard let leader = leaders.first else { return await Self.stop(replicas) }
    await leader.server.stop()
    let others = replicas.filter { $0 !== leader }
    let moved = await ServerFixture.eventually(within: 5) {
      others.filter { $0.server.isLeader }.count == 1
    }
    #expect(moved, "another replica took the lead within seconds")
    let (_, health) = try await others.first { $0.server.isLeader }!.get("/healthz")
    #expect(health.contains(#""role":"leader""#), "\(health)")
    let (_, follower) = try await others.first { !$0.server.isLeader }!.get("/healthz")
    #expect(follower.contains(#""role":"follower""#), "\(follower)")
    await Self.stop(replicas)
  }
}
