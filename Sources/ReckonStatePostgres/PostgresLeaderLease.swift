import Foundation
import ReckonState
import Synchronization

/// The lead among the instances sharing a PostgreSQL state: a session advisory lock on a
/// connection kept for it alone. The server lets the lock go when that connection ends, so the
/// lead of an instance that died (killed, or its machine gone, noticed by the keepalives the
/// session sets) is another's at that instance's next `refresh()`.
final class PostgresLeaderLease: LeaderLease, @unchecked Sendable {
  let address: PostgresAddress
  /// Held by `refresh` across its queries, and by `release`'s unlock: a server that stalls
  /// (its machine frozen, the kernel still acknowledging) holds it as long as it stalls, so
  /// `isLeader`, which probes and metrics read, never takes it.
  private let session = NSLock()
  private var connection: PostgresConnection?
  private let leading = Atomic(false)
  private let released = Atomic(false)

  /// How long `release` waits for a refresh under way, or for its unlock, before it lets the
  /// session go with the process: the server frees the lock when the session ends.
  static let releaseWait: TimeInterval = 2

  init(address: PostgresAddress) {
    self.address = address
  }

  var isLeader: Bool { leading.load(ordering: .acquiring) }

  func refresh() -> Bool {
    session.withLock {
      guard !released.load(ordering: .acquiring) else { return false }
      var leads = leading.load(ordering: .acquiring)
      do throws(StateError) {
        let connection: PostgresConnection
        if let open = self.connection {
          connection = open
        } else {
          connection = try Self.connect(address)
          self.connection = connection
        }
        if leads {
          // Held while the session lives; a session that dropped (and was reset) lost it.
          leads =
            try connection.query(
              """
              SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
                AND pid = pg_backend_pid() AND classid = $1::integer::oid
                AND objid = $2::integer::oid AND granted)
              """, Self.key
            ).first?.bool(0) ?? false
        }
        if !leads {
          leads =
            try connection.query("SELECT pg_try_advisory_lock($1::integer, $2::integer)", Self.key)
            .first?.bool(0) ?? false
        }
      } catch {
        // Unreachable: the server lets the lock go with the session, so no instance may go on
        // as if it led.
        connection = nil
        leads = false
      }
      // A release that came meanwhile has the last word.
      if released.load(ordering: .acquiring) { leads = false }
      leading.store(leads, ordering: .releasing)
      return leads
    }
  }

  /// Unlocks before closing: the server frees a closed session's locks a moment after the
  /// close returns, and the next instance should find the lead free at once. Waits at most
  /// `releaseWait` for a stalled server, so a stop is never held up by it.
  func release() {
    released.store(true, ordering: .releasing)
    leading.store(false, ordering: .releasing)
    let done = DispatchSemaphore(value: 0)
    Thread { [self] in
      session.withLock {
        // Whatever the flag said: a refresh under way may just have won the lock. Unlocking a
        // lock not held does nothing.
        _ = try? connection?.query(
          "SELECT pg_advisory_unlock($1::integer, $2::integer)", Self.key)
        connection = nil
      }
      done.signal()
    }.start()
    _ = done.wait(timeout: .now() + Self.releaseWait)
  }

  private static let key: [PostgresValue] = [
    .integer(Int64(PostgresSchema.lockClass)), .integer(Int64(PostgresSchema.leaderLock)),
  ]

  /// A connection whose server notices within seconds that this instance went silent, and
  /// frees the lock.
  private static func connect(_ address: PostgresAddress) throws(StateError) -> PostgresConnection {
    let connection = try PostgresConnection(address: address)
    try connection.execute(
      """
      SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3;
      SET tcp_user_timeout = 20000
      """)
    return connection
  }
}
