import Foundation
import ReckonState

/// A read-only connection of its own for the gauges `/healthz` and `/metrics` show, opened on
/// first use. Their counts read the outbox and the reply window's requests, which takes longer
/// as the state grows; on the store's one connection the reading would hold every write (every
/// notification recorded) for as long. In WAL mode a reader on another connection holds up no
/// writer.
final class GaugeReader: @unchecked Sendable {
  private let path: String
  private let lock = NSLock()
  private var connection: SQLiteConnection?

  init(path: String) {
    self.path = path
  }

  /// Runs `body` on the reader's connection, inside one read transaction so its counts agree.
  func read<T>(_ body: (SQLiteConnection) throws(StateError) -> T) throws(StateError) -> T {
    lock.lock()
    defer { lock.unlock() }
    let reader: SQLiteConnection
    if let connection {
      reader = connection
    } else {
      reader = try SQLiteConnection(path: path, synchronous: "NORMAL", readOnly: true)
      connection = reader
    }
    try reader.execute("BEGIN")
    do {
      let result = try body(reader)
      try reader.execute("COMMIT")
      return result
    } catch {
      try? reader.execute("ROLLBACK")
      // Opened again next time: a file replaced under it, say.
      connection = nil
      throw error
    }
  }
}
