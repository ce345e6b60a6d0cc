import Foundation
import ReckonServer
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// While the PostgreSQL server cannot be reached, the webhook answers 503 (Apple tries again)
/// and records nothing; once it is back, Apple's retry is recorded once and decided.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct DatabaseOutageTests {
  /// Runs `sql` as the test server's administrator.
  static func administer(_ sql: String) throws {
    try PostgresAddress(url: try TestPostgres.serverAddress() + "/postgres").administer(sql)
  }

  @Test func anUnreachableDatabaseIsAnswered503AndTheRetryRecordedOnce() async throws {
    let url = try TestPostgres.freshDatabase()
    let database = String(url.split(separator: "/").last!)
    let fixture = try ServerFixture(
      state: PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore))
    let before = try fixture.body(ServerFixture.notification(transaction: "2000000900000001"))
    #expect(try await fixture.post(before).0 == 200)

    try Self.administer("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
    try Self.administer(
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = '\(database)' AND pid <> pg_backend_pid()
      """)
    let during = try fixture.body(ServerFixture.notification(transaction: "2000000900000002"))
    let (status, answer) = try await fixture.post(during)
    #expect(status == 503, "\(answer)")
    let (health, said) = try await fixture.get("/healthz")
    #expect(health == 503, "\(said)")
    #expect(said.contains("unreachable"), "\(said)")
    #expect(
      fixture.logLines.all.contains { $0.contains("cannot be reached") },
      "the log names the cause")

    try Self.administer("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
    #expect(try await fixture.post(during).0 == 200, "Apple's retry, once the server is back")
    #expect(try await fixture.post(during).0 == 200)
    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    #expect(try store.storedRequests(since: nil, until: nil).count == 2, "the retry recorded once")
    let decided = await ServerFixture.eventually {
      (try? store.entries(states: []))?.map(\.transactionId).sorted()
        == ["2000000900000001", "2000000900000002"]
    }
    #expect(decided, "both decided, each once")
    // The gauges are read every 50 ms here; the first reading after the outage says ok.
    var healthAfter = 0
    for _ in 0..<100 where healthAfter != 200 {
      healthAfter = try await fixture.get("/healthz").0
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    #expect(healthAfter == 200)
    await fixture.stop()
  }
}
