import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open SQLite connection. Not thread-safe by itself: use one connection from one thread at a
/// time (a pool hands them out, or an owner serializes access), which is why it is opened with
/// `SQLITE_OPEN_NOMUTEX` by default.
public final class SQLiteDatabase {
  /// How a database is opened: the `SQLITE_OPEN_*` flags.
  public struct OpenOptions: OptionSet, Sendable {
    /// The raw `SQLITE_OPEN_*` bits.
    public let rawValue: Int32

    /// Creates options from raw `SQLITE_OPEN_*` bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Read only: writes fail, the file must exist.
    public static let readOnly = OpenOptions(rawValue: SQLITE_OPEN_READONLY)
    /// Read and write.
    public static let readWrite = OpenOptions(rawValue: SQLITE_OPEN_READWRITE)
    /// Create the file if it does not exist (with `readWrite`).
    public static let create = OpenOptions(rawValue: SQLITE_OPEN_CREATE)
    /// No connection mutex: the caller guarantees one thread at a time.
    public static let noMutex = OpenOptions(rawValue: SQLITE_OPEN_NOMUTEX)
    /// A serialized connection that may be shared between threads.
    public static let fullMutex = OpenOptions(rawValue: SQLITE_OPEN_FULLMUTEX)
  }

  /// The file this connection reads.
  public let path: String
  /// The raw `sqlite3` connection, for calls this wrapper does not cover.
  public let handle: OpaquePointer
  /// Statements prepared by `query`, kept for reuse by their SQL text.
  private var cache: [String: SQLiteStatement] = [:]

  /// Opens the database at `path`; with a `busyTimeoutMs`, waits that long for a lock before failing.
  public init(path: String, options: OpenOptions = [.readOnly, .noMutex], busyTimeoutMs: Int32 = 0)
    throws(SQLiteError)
  {
    _ = SQLiteDatabase.configured
    // SQLite would wait for ever on a FIFO's first read, or read a device as a database.
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      throw SQLiteError(
        code: SQLITE_CANTOPEN,
        message: status.st_mode & S_IFMT == S_IFDIR
          ? "is a folder, not a database file" : "is not a regular file (a FIFO or a device)",
        context: "opening \(path)")
    }
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, options.rawValue, nil)
    guard code == SQLITE_OK, let handle else {
      let message =
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_close_v2(handle)
      throw SQLiteError(code: code, message: message, context: "opening \(path)")
    }
    self.path = path
    self.handle = handle
    if busyTimeoutMs > 0 { sqlite3_busy_timeout(handle, busyTimeoutMs) }
    // A double-quoted word is an identifier only: a mistyped column in a fact query must fail
    // to prepare, not silently become a text literal.
    let refused = reckon_sqlite3_refuse_double_quoted_strings(handle)
    guard refused == SQLITE_OK else {
      throw SQLiteError(
        code: refused, message: String(cString: sqlite3_errstr(refused)),
        context: "configuring \(path)")
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// SQLite's process-wide settings, made once before the first connection opens. Refused
  /// (`SQLITE_MISUSE`) when something else in the process initialized SQLite first, which
  /// leaves SQLite's defaults: slower, not wrong.
  private static let configured: Void = {
    _ = reckon_sqlite3_skip_memory_statistics()
  }()

  /// Compiles one SQL statement, to be run many times. Text after it other than spaces and
  /// comments (a second statement) is refused: SQLite would compile the first and drop the rest
  /// without a word.
  public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    let bytes = Array(sql.utf8CString)
    var statement: OpaquePointer?
    var rest = 0
    let code = bytes.withUnsafeBufferPointer { text in
      var tail: UnsafePointer<CChar>?
      defer { rest = tail.map { $0 - text.baseAddress! } ?? bytes.count - 1 }
      return sqlite3_prepare_v3(
        handle, text.baseAddress, Int32(bytes.count), UInt32(SQLITE_PREPARE_PERSISTENT),
        &statement, &tail)
    }
    guard code == SQLITE_OK else { throw error(code, context: "preparing the query") }
    guard let statement else {
      throw SQLiteError(
        code: SQLITE_MISUSE, message: "the query is empty", context: "preparing the query")
    }
    let prepared = SQLiteStatement(statement, database: self)
    if rest < bytes.count - 1 {
      var next: OpaquePointer?
      let tailCode = bytes.withUnsafeBufferPointer {
        sqlite3_prepare_v2(handle, $0.baseAddress! + rest, Int32(bytes.count - rest), &next, nil)
      }
      if let next { sqlite3_finalize(next) }
      guard tailCode != SQLITE_OK || next == nil else {
        throw SQLiteError(
          code: SQLITE_MISUSE,
          message: "only one statement may be given; more follows the first",
          context: "preparing the query")
      }
      guard tailCode == SQLITE_OK else { throw error(tailCode, context: "preparing the query") }
    }
    return prepared
  }

  /// Runs SQL text, possibly several statements, ignoring any rows (schema scripts, pragmas).
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      throw SQLiteError(code: code, message: text, context: "running SQL")
    }
  }

  /// Runs one statement (prepared once and cached) with `values` bound in order; every row.
  @discardableResult
  public func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow]
  {
    let statement: SQLiteStatement
    if let cached = cache[sql] {
      statement = cached
    } else {
      statement = try prepare(sql)
      cache[sql] = statement
    }
    defer { statement.reset() }
    try statement.bind(values)
    var rows: [SQLiteRow] = []
    while try statement.step() { rows.append(statement.row()) }
    return rows
  }

  /// Runs one statement with `values` bound in order, handing each row to `body` as it is
  /// read: a million rows are never held at once.
  public func forEachRow(
    _ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) -> Void
  ) throws(SQLiteError) {
    let statement = try prepare(sql)
    defer { statement.reset() }
    try statement.bind(values)
    while try statement.step() { body(statement.row()) }
  }

  /// The rowid of the last insert.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last statement.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The extended result code of the last failure, e.g. to tell a constraint from other errors.
  public var lastErrorCode: Int32 { sqlite3_extended_errcode(handle) }

  /// Rows changed since the connection opened, by every statement.
  public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

  /// Whether no transaction is open (each statement commits by itself).
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// The connection's last error as a typed error, with what was being done.
  func error(_ code: Int32, context: String) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), context: context)
  }
}

/// A failure reported by SQLite: its result code, `sqlite3_errmsg`, and what Reckon was doing.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The (extended) SQLite result code.
  public let code: Int32
  /// SQLite's own message, e.g. `database is locked`.
  public let message: String
  /// What was being done, e.g. `opening facts.sqlite`.
  public let context: String

  /// Creates an error.
  public init(code: Int32, message: String, context: String) {
    self.code = code
    self.message = message
    self.context = context
  }

  /// Whether another connection held a lock past the busy timeout.
  public var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }

  /// `context: message`.
  public var description: String { "\(context): \(message)" }
}
