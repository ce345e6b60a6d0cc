import CSQLite
import Foundation

/// A prepared SQLite statement: bind parameters by name, step through rows, read columns, reset,
/// run again. Finalized when released. Use from one thread at a time, like its connection.
public final class SQLiteStatement {
  /// The raw `sqlite3_stmt`, for zero-copy column reads on hot paths (bulk scans).
  public let handle: OpaquePointer
  /// The connection, kept alive as long as the statement.
  public let database: SQLiteDatabase

  init(_ handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// The SQL text as written.
  public var sql: String { String(cString: sqlite3_sql(handle)) }

  /// The named parameters, as written (`:transaction_id`), in index order; index is position + 1.
  public var parameterNames: [String?] {
    (0..<sqlite3_bind_parameter_count(handle)).map { index in
      sqlite3_bind_parameter_name(handle, index + 1).map { String(cString: $0) }
    }
  }

  /// The result columns' names (the `AS` names), in order.
  public var columnNames: [String] {
    (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
  }

  /// Whether the statement only reads.
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// The 1-based index of a named parameter, e.g. `:transaction_id`, or nil.
  public func parameterIndex(_ name: String) -> Int32? {
    let index = sqlite3_bind_parameter_index(handle, name)
    return index == 0 ? nil : index
  }

  /// Binds text, or NULL for nil, to the parameter at a 1-based index.
  public func bind(_ text: String?, at index: Int32) throws(SQLiteError) {
    let code: Int32
    if let text {
      code = sqlite3_bind_text(handle, index, text, -1, SQLiteStatement.transient)
    } else {
      code = sqlite3_bind_null(handle, index)
    }
    guard code == SQLITE_OK else {
      throw database.error(code, context: "binding parameter \(index)")
    }
  }

  /// Binds a value to the parameter at a 1-based index.
  public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(handle, index)
    case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
    case .real(let number): code = sqlite3_bind_double(handle, index, number)
    case .text(let text):
      code = sqlite3_bind_text(handle, index, text, -1, SQLiteStatement.transient)
    case .blob(let data):
      code = data.withUnsafeBytes { bytes in
        sqlite3_bind_blob(
          handle, index, bytes.baseAddress, Int32(bytes.count), SQLiteStatement.transient)
      }
    }
    guard code == SQLITE_OK else {
      throw database.error(code, context: "binding parameter \(index)")
    }
  }

  /// Advances to the next row: true when there is one, false when done.
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw database.error(code, context: "running the query")
    }
  }

  /// The value of a column of the current row.
  public func column(_ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, index)))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: count))
    default: return .null
    }
  }

  /// Makes the statement ready to run again and releases its read lock; bindings are cleared.
  public func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Binds `values` to the parameters in order (1, 2, ...).
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
  }

  /// Every column of the current row.
  public func row() -> SQLiteRow {
    SQLiteRow(values: (0..<sqlite3_column_count(handle)).map { column($0) })
  }
}
