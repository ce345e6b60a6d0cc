import Foundation
import ReckonState

/// The right to send over a PostgreSQL state: a session advisory lock, taken on a connection
/// kept for it alone. The server releases it when that connection ends, so a sender that died
/// (its machine gone, the process killed) leaves it for another within the server's notice of
/// the dropped connection.
final class PostgresSenderLease: SenderLease, @unchecked Sendable {
  let address: PostgresAddress
  private let lock = NSLock()
  private var connection: PostgresConnection?

  /// Takes the lock without waiting; throws when another sender holds it or the database
  /// cannot be reached.
  init(address: PostgresAddress) throws(SenderLockError) {
    self.address = address
    let connection: PostgresConnection
    let taken: Bool
    do {
      connection = try PostgresConnection(address: address)
      taken =
        try connection.query(
          "SELECT pg_try_advisory_lock($1::integer, $2::integer)",
          [.integer(Int64(PostgresSchema.lockClass)), .integer(Int64(PostgresSchema.senderLock))]
        ).first?.bool(0) ?? false
    } catch {
      throw .cannotOpen(path: address.description, reason: error.description)
    }
    guard taken else { throw .heldByAnotherSender(path: "the sender lock of \(address)") }
    self.connection = connection
  }

  var name: String { "the sender lock of \(address)" }

  var isHeld: Bool { lock.withLock { connection != nil } }

  var isExclusive: Bool { true }

  /// Closes the lock's connection, which releases it.
  func release() {
    lock.withLock { connection = nil }
  }
}
