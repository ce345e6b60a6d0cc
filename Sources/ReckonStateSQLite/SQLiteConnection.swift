import CSQLite
import Foundation
import ReckonSQLite
import ReckonState

/// The state database's connection: WAL mode, a busy timeout, cached statements, and SQLite's
/// errors turned into `StateError`. Not thread-safe on its own: its owner (`SQLiteStateStore`)
/// serializes access.
final class SQLiteConnection {
  private let database: SQLiteDatabase
  let path: String
  /// Whether writes have been committing (see `StateWriteHealth`).
  let writeHealth = StateWriteHealth()
  /// `totalChanges` when the open transaction began: a commit that changed no row wrote no
  /// page, and proves nothing of the file's health.
  private var changesAtBegin: Int64 = 0

  /// Opens (creating if needed) the database at `path` in WAL mode with a busy timeout; with
  /// `readOnly`, opens an existing file for reading only and leaves its journal mode alone.
  /// Without `setUpForWriting`, a writable file is opened and nothing written to it until
  /// `setUpForWriting(synchronous:)`, so its contents can be checked first.
  init(
    path: String, synchronous: String, busyTimeoutMilliseconds: Int32 = 5_000,
    readOnly: Bool = false, setUpForWriting: Bool = true
  ) throws(StateError) {
    self.path = path
    // A new database holds customers' transaction ids and account tokens: owner-only, whatever
    // the umask. SQLite gives its -wal and -shm files the database file's permissions.
    if !readOnly, !FileManager.default.fileExists(atPath: path) {
      let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
      if descriptor >= 0 { close(descriptor) }
    }
    do {
      database = try SQLiteDatabase(
        path: path, options: readOnly ? [.readOnly, .noMutex] : [.readWrite, .create, .noMutex],
        busyTimeoutMs: busyTimeoutMilliseconds)
    } catch {
      throw .cannotOpen(path: path, message: error.message)
    }
    try execute("PRAGMA foreign_keys=ON")
    if !readOnly, setUpForWriting { try self.setUpForWriting(synchronous: synchronous) }
  }

  /// Switches the file to WAL mode (a write, so only once it is known to be ours) and sets how
  /// hard commits are synced.
  func setUpForWriting(synchronous: String) throws(StateError) {
    try execute("PRAGMA journal_mode=WAL")
    try execute("PRAGMA synchronous=\(synchronous)")
  }

  /// Runs SQL that returns no rows we need (several statements allowed).
  func execute(_ sql: String) throws(StateError) {
    do { try database.execute(sql) } catch { throw failed(error, sql) }
    noteSuccess(sql)
  }

  /// Runs one statement with `values` bound in order and returns every row.
  @discardableResult
  func query(_ sql: String, _ values: [SQLiteValue] = []) throws(StateError) -> [SQLiteRow] {
    let rows: [SQLiteRow]
    do { rows = try database.query(sql, values) } catch { throw failed(error, sql) }
    noteSuccess(sql)
    return rows
  }

  /// Runs one statement, handing each row to `body` as it is read.
  func forEachRow(_ sql: String, _ values: [SQLiteValue], _ body: (SQLiteRow) -> Void)
    throws(StateError)
  {
    do { try database.forEachRow(sql, values, body) } catch { throw failed(error, sql) }
    noteSuccess(sql)
  }

  /// The error for `error`, noted in `writeHealth` when a write failed for another reason than
  /// a constraint (which is the caller's answer, not the file's health).
  private func failed(_ error: SQLiteError, _ sql: String) -> StateError {
    let mapped = Self.mapped(error, sql)
    if Self.writingWord(sql) != nil, error.code & 0xff != SQLITE_CONSTRAINT {
      writeHealth.failed(mapped.description)
    }
    return mapped
  }

  /// Notes a write that committed a change: a COMMIT, or a write outside a transaction, that
  /// changed a row. A duplicate ignored, or a transaction that only read, writes no page.
  private func noteSuccess(_ sql: String) {
    guard let word = Self.writingWord(sql) else { return }
    guard database.isAutocommit else {
      // BEGIN: count the changes from here.
      if word == "BEGIN" { changesAtBegin = database.totalChanges }
      return
    }
    let changed =
      word == "COMMIT" ? database.totalChanges > changesAtBegin : database.changes > 0
    if changed { writeHealth.committed() }
  }

  /// The first words of statements that write (or start or end a write transaction).
  private static let writingWords: [String] = [
    "INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN", "COMMIT", "CREATE", "ALTER", "DROP",
  ]

  /// Whether no transaction is open: each statement commits on its own.
  var isAutocommit: Bool { database.isAutocommit }

  /// The rowid of the last insert.
  var lastInsertRowID: Int64 { database.lastInsertRowID }

  /// Rows changed by the last statement.
  var changes: Int { database.changes }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
  func transaction<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
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

  private static func mapped(_ error: SQLiteError, _ sql: String) -> StateError {
    if error.code & 0xff == SQLITE_CONSTRAINT {
      return .constraintViolated(operation: summary(sql), message: error.message)
    }
    return .statementFailed(operation: summary(sql), message: error.message)
  }

  private static func summary(_ sql: String) -> String {
    let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
  }

  /// The statement's first word, upper-cased, when it is one of `writingWords`; compared byte
  /// by byte, since every statement of every request is looked at.
  private static func writingWord(_ sql: String) -> String? {
    let word = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }.prefix { $0 > 0x20 }
    let upper = word.lazy.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
    return writingWords.first { $0.utf8.elementsEqual(upper) }
  }
}
