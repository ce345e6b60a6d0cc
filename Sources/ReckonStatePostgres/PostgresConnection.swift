import CLibPQ
import Foundation
import ReckonState

/// One libpq connection to the state database: statements with binary parameters and results,
/// transactions retried when the server reports a serialization failure or a deadlock, and the
/// server's errors turned into `StateError`. Not thread-safe on its own: its owner serializes
/// access.
final class PostgresConnection {
  private(set) var handle: OpaquePointer
  /// The database's address, its password never included.
  let address: PostgresAddress
  /// Whether writes have been committing (see `StateWriteHealth`).
  let writeHealth = StateWriteHealth()
  /// Rows the last statement changed.
  private(set) var changes = 0
  /// Whether a transaction is open on this connection.
  private(set) var inTransaction = false

  /// How often a transaction the server aborted to keep transactions apart is run again.
  static let transactionAttempts = 8

  /// Connects to `address`; throws `.cannotOpen` with libpq's reason when it cannot.
  init(address: PostgresAddress) throws(StateError) {
    self.address = address
    guard let handle = address.connect() else {
      throw .cannotOpen(path: address.description, message: "libpq could not allocate a connection")
    }
    self.handle = handle
    guard PQstatus(handle) == CONNECTION_OK else {
      // Every stored property is set, so `deinit` runs and finishes the handle.
      let message = Self.message(PQerrorMessage(handle))
      throw .cannotOpen(path: address.description, message: message)
    }
    // The server's NOTICEs ("relation already exists, skipping") are not the operator's concern.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
  }

  deinit { PQfinish(handle) }

  /// Whether the connection is up, reconnecting once if it dropped (the server restarted, a
  /// failover): the statement that found it down failed, and the next one gets a fresh session.
  func ensureConnected() throws(StateError) {
    guard PQstatus(handle) != CONNECTION_OK else { return }
    PQreset(handle)
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = Self.message(PQerrorMessage(handle))
      // Nothing can be written until it is back: `/healthz` says so from this moment.
      writeHealth.failed(message)
      throw .unreachable(path: address.description, message: message)
    }
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
    inTransaction = false
  }

  /// Runs SQL that returns no rows we need (several statements allowed, no parameters).
  func execute(_ sql: String) throws(StateError) {
    try ensureConnected()
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    try check(result, sql)
  }

  /// Runs one statement with `values` bound as `$1`, `$2`, … and returns every row.
  @discardableResult
  func query(_ sql: String, _ values: [PostgresValue] = []) throws(StateError) -> [PostgresRow] {
    try ensureConnected()
    let types = values.map { $0.type.rawValue }
    let encoded = values.map(\.binary)
    let lengths = encoded.map { Int32($0?.count ?? 0) }
    let formats = [Int32](repeating: 1, count: values.count)
    let result = Self.withPointers(encoded) { pointers in
      PQexecParams(
        handle, sql, Int32(values.count), types, pointers, lengths, formats, 1)
    }
    defer { PQclear(result) }
    try check(result, sql)
    return Self.rows(of: result)
  }

  /// Runs `body` in a transaction, committing when it returns and rolling back when it throws;
  /// run again from the start when the server aborted it for a serialization failure or a
  /// deadlock. Nested calls join the open transaction.
  func transaction<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
    guard !inTransaction else { return try body() }
    var attempt = 1
    while true {
      try query("BEGIN")
      inTransaction = true
      do {
        let result = try body()
        try query("COMMIT")
        inTransaction = false
        return result
      } catch {
        inTransaction = false
        _ = try? query("ROLLBACK")
        guard error.isRetryableConflict, attempt < Self.transactionAttempts else { throw error }
        attempt += 1
      }
    }
  }

  /// Throws for a failed result, noting a failed write in `writeHealth`; notes a committed one.
  private func check(_ result: OpaquePointer?, _ sql: String) throws(StateError) {
    let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
    let word = Self.firstWord(sql)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }
        .map { String(cString: $0) }
      let message = Self.message(
        result.flatMap { PQresultErrorMessage($0) } ?? PQerrorMessage(handle))
      // A session that ended under the statement (the server stopped, the network failed) is
      // the server out of reach, not a statement at fault.
      let error =
        PQstatus(handle) == CONNECTION_BAD || Self.isConnectionLoss(sqlState: state)
        ? StateError.unreachable(path: address.description, message: message)
        : Self.mapped(sqlState: state, message: message, sql: sql, in: address)
      if Self.writingWords.contains(word), !(state?.hasPrefix("23") ?? false) {
        writeHealth.failed(error.description)
      }
      throw error
    }
    changes = Int(String(cString: PQcmdTuples(result))) ?? 0
    if word == "COMMIT" || (!inTransaction && word != "BEGIN" && Self.writingWords.contains(word)) {
      writeHealth.committed()
    }
  }

  private static func rows(of result: OpaquePointer?) -> [PostgresRow] {
    guard let result else { return [] }
    let count = PQntuples(result)
    let columns = PQnfields(result)
    guard count > 0 else { return [] }
    let types = (0..<columns).map { PQftype(result, $0) }
    return (0..<count).map { row in
      PostgresRow(
        cells: (0..<columns).map { column in
          guard PQgetisnull(result, row, column) == 0 else { return nil }
          let length = Int(PQgetlength(result, row, column))
          return PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: length)
          {
            PostgresRow.decode(
              UnsafeBufferPointer(start: $0, count: length), type: types[Int(column)])
          }
        })
    }
  }

  /// Calls `body` with C pointers to each value's bytes (nil for NULL), valid during the call.
  private static func withPointers<R>(
    _ values: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> R
  ) -> R {
    let buffers = values.map { bytes -> UnsafeMutablePointer<CChar>? in
      guard let bytes else { return nil }
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
      bytes.withUnsafeBufferPointer { source in
        source.withMemoryRebound(to: CChar.self) {
          buffer.initialize(from: $0.baseAddress!, count: bytes.count)
        }
      }
      return buffer
    }
    defer { for buffer in buffers { buffer?.deallocate() } }
    return body(buffers.map { $0.map { UnsafePointer($0) } })
  }

  /// The error for a failed statement: a broken rule (SQLSTATE class 23) the caller's answer,
  /// anything else a failure of the statement. A refused privilege (42501) names the database
  /// and user, which the server's message does not.
  static func mapped(sqlState: String?, message: String, sql: String, in address: PostgresAddress)
    -> StateError
  {
    let operation = summary(sql)
    var detail = sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    if sqlState == "42501" {
      detail +=
        "; the user of \(address) lacks the privilege: make it the owner of the database "
        + "(docs/scaling.md, step 1)"
    }
    if sqlState?.hasPrefix("23") ?? false {
      return .constraintViolated(operation: operation, message: detail)
    }
    return .statementFailed(operation: operation, message: detail)
  }

  /// A connection failure (class 08) or the server shutting down or refusing connections
  /// (57P01–57P03).
  static func isConnectionLoss(sqlState: String?) -> Bool {
    guard let sqlState else { return false }
    return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
  }

  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "unknown error" }
    return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
  }

  private static let writingWords: Set<String> = [
    "INSERT", "UPDATE", "DELETE", "BEGIN", "COMMIT", "CREATE", "ALTER", "DROP",
  ]

  private static func summary(_ sql: String) -> String {
    let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
  }

  private static func firstWord(_ sql: String) -> String {
    let word = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }.prefix { $0 > 0x20 }
    return String(decoding: word, as: UTF8.self).uppercased()
  }
}

extension StateError {
  /// Whether the server aborted the transaction only to keep it apart from another (a
  /// serialization failure, 40001, or a deadlock, 40P01): running it again may succeed.
  var isRetryableConflict: Bool {
    guard case .statementFailed(_, let message) = self else { return false }
    return message.hasSuffix("(SQLSTATE 40001)") || message.hasSuffix("(SQLSTATE 40P01)")
  }
}
