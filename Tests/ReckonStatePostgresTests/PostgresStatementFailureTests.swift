import Foundation
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStatePostgres

/// How a statement that cannot go on fails: one waiting for a lock another session holds (a
/// `VACUUM FULL`, a `LOCK TABLE` left open) at the lock timeout, rather than hold the webhook's
/// answer as long as the lock; one refused a privilege naming the database and its user.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct PostgresStatementFailureTests {
  @Test func everyConnectionWaitsAtMostTwentySecondsForALock() throws {
    let connection = try PostgresConnection(
      address: PostgresAddress(url: try TestPostgres.freshDatabase()))
    #expect(try connection.query("SHOW lock_timeout").first?.text(0) == "20s")
  }

  @Test func aStatementWaitingForALockFailsAtTheLockTimeout() throws {
    let url = try TestPostgres.freshDatabase()
    _ = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    // The address's own options win over Reckon's, here to keep the test short.
    let store = try PostgresStateStore(
      address: PostgresAddress(url: url + "?options=-c%20lock_timeout%3D300"), rules: .appStore)
    let holder = try PostgresConnection(address: PostgresAddress(url: url))
    try holder.execute("BEGIN")
    try holder.execute("LOCK TABLE requests IN ACCESS EXCLUSIVE MODE")
    let started = ContinuousClock.now
    #expect(throws: StateError.self) {
      try store.recordNotification(StateSamples.notification())
    }
    #expect(ContinuousClock.now - started < .seconds(10))
    try holder.execute("ROLLBACK")
    #expect(try store.recordNotification(StateSamples.notification()).requestId > 0)
  }

  /// The server's "permission denied" names neither database nor user: the error does.
  @Test func aRefusedPrivilegeNamesTheDatabaseAndItsUser() throws {
    let url = try TestPostgres.freshDatabase()
    let role = "limited_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try PostgresAddress(url: url).administer("CREATE ROLE \(role) LOGIN")
    let limited = url.replacingOccurrences(of: "://reckon@", with: "://\(role)@")
    #expect(limited != url)
    #expect {
      try PostgresStateStore(address: PostgresAddress(url: limited), rules: .appStore)
    } throws: { error in
      let said = "\(error)"
      return said.contains("42501") && said.contains("the user of \(limited) lacks the privilege")
    }
  }
}
