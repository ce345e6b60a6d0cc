import CSQLite
import Foundation

/// One SQLite connection with prepared-statement caching. Not thread-safe on its own: its owner
/// (`StateStore`) serializes access.
final class SQLiteConnection {
  private var handle: OpaquePointer?
  private var statements: [String: SQLiteStatement] = [:]
  let path: String

  /// Opens (creating if needed) the database at `path` in WAL mode with a busy timeout.
  init(path: String, synchronous: String, busyTimeoutMilliseconds: Int32 = 5_000)
    throws(StateDatabaseError)
  {
    self.path = path
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      throw .cannotOpen(path: path, message: message)
    }
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    try execute("PRAGMA journal_mode=WAL")
    try execute("PRAGMA synchronous=\(synchronous)")
    try execute("PRAGMA foreign_keys=ON")
  }

  deinit {
    statements.values.forEach { $0.finalize() }
    sqlite3_close_v2(handle)
  }

  /// Runs SQL that returns no rows we need (several statements allowed).
  func execute(_ sql: String) throws(StateDatabaseError) {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(error)
      throw .statementFailed(sql: Self.summary(sql), message: message)
    }
  }

  /// Runs one statement with `values` bound in order and returns every row.
  @discardableResult
  func query(_ sql: String, _ values: [SQLiteValue] = []) throws(StateDatabaseError) -> [SQLiteRow]
  {
    let statement = try prepared(sql)
    defer { statement.reset() }
    try statement.bind(values)
    var rows: [SQLiteRow] = []
    while true {
      let code = statement.step()
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else { throw failure(sql) }
      rows.append(statement.row())
    }
    return rows
  }

  /// The rowid of the last insert.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last statement.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
  func transaction<T>(_ body: () throws(StateDatabaseError) -> T) throws(StateDatabaseError) -> T {
    try query("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try query("COMMIT")
      return result
    } catch {
      _ = try? query("ROLLBACK")
      throw error
    }
  }

  private func prepared(_ sql: String) throws(StateDatabaseError) -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    var pointer: OpaquePointer?
    guard
      sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        == SQLITE_OK, let pointer
    else { throw failure(sql) }
    let statement = SQLiteStatement(pointer)
    statements[sql] = statement
    return statement
  }

  private func failure(_ sql: String) -> StateDatabaseError {
    let message = String(cString: sqlite3_errmsg(handle))
    if sqlite3_errcode(handle) == SQLITE_CONSTRAINT {
      return .constraintViolated(sql: Self.summary(sql), message: message)
    }
    return .statementFailed(sql: Self.summary(sql), message: message)
  }

  private static func summary(_ sql: String) -> String {
    let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
  }
}
