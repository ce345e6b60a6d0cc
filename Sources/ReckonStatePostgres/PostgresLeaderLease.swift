import Foundation
import ReckonState

/// The lead among the instances sharing a PostgreSQL state: a session advisory lock on a
/// connection kept for it alone. The server lets the lock go when that connection ends, so the
/// lead of an instance that died (killed, or its machine gone, noticed by the keepalives the
/// session sets) is another's at that instance's next `refresh()`.
final class PostgresLeaderLease: LeaderLease, @unchecked Sendable {
  let address: PostgresAddress
  private let lock = NSLock()
  private var connection: PostgresConnection?
  private var leading = false
  private var released = false

  init(address: PostgresAddress) {
    self.address = address
  }

  var isLeader: Bool { lock.withLock { leading } }

  func refresh() -> Bool {
    lock.withLock {
      guard !released else { return false }
      do throws(StateError) {
        let connection: PostgresConnection
        if let open = self.connection {
          connection = open
        } else {
          connection = try Self.connect(address)
          self.connection = connection
        }
        if leading {
          // Held while the session lives; a session that dropped (and was reset) lost it.
          leading =
            try connection.query(
              """
              SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
                AND pid = pg_backend_pid() AND classid = $1::integer::oid
                AND objid = $2::integer::oid AND granted)
              """, Self.key
            ).first?.bool(0) ?? false
        }
        if !leading {
          leading =
            try connection.query("SELECT pg_try_advisory_lock($1::integer, $2::integer)", Self.key)
            .first?.bool(0) ?? false
        }
      } catch {
        // Unreachable: the server lets the lock go with the session, so no instance may go on
        // as if it led.
        connection = nil
        leading = false
      }
      return leading
    }
  }

  /// Unlocks before closing: the server frees a closed session's locks a moment after the
  /// close returns, and the next instance should find the lead free at once.
  func release() {
    lock.withLock {
      if leading {
        _ = try? connection?.query(
          "SELECT pg_advisory_unlock($1::integer, $2::integer)", Self.key)
      }
      released = true
      leading = false
      connection = nil
    }
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
