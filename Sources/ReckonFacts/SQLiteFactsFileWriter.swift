import Foundation
import ReckonSQLite

/// Writes a new SQLite database for `SQLiteFactSource` to read, in one transaction: the
/// generator's example app database, a demo's. Callers say what the tables hold; this keeps
/// SQLite itself inside the targets that own it.
public final class SQLiteFactsFileWriter {
  /// A value for one column of a row.
  public enum Value: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case null

    var sqlite: SQLiteValue {
      switch self {
      case .text(let text): .text(text)
      case .integer(let number): .integer(number)
      case .null: .null
      }
    }
  }

  /// A prepared `INSERT`, run once per row.
  public final class Insert {
    fileprivate let statement: SQLiteStatement

    fileprivate init(_ statement: SQLiteStatement) {
      self.statement = statement
    }

    /// Inserts one row of `values`, bound in order.
    public func run(_ values: [Value]) throws {
      defer { statement.reset() }
      try statement.bind(values.map(\.sqlite))
      _ = try statement.step()
    }
  }

  private let database: SQLiteDatabase

  /// Creates the database at `path` with `schema` (an SQL script), replacing one there with
  /// its log files, and begins the one transaction every row goes in.
  public init(path: String, schema: String) throws {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    database = try SQLiteDatabase(path: path, options: [.readWrite, .create, .noMutex])
    try database.execute("PRAGMA journal_mode = WAL")
    try database.execute(schema)
    // A file made whole in one run: a crash leaves a file to make again, not one to keep.
    try database.execute("PRAGMA synchronous = OFF; BEGIN")
  }

  /// Prepares `sql`, an `INSERT` with one `?` per column.
  public func insert(_ sql: String) throws -> Insert {
    Insert(try database.prepare(sql))
  }

  /// Commits every row, gathers the statistics the query planner reads, and folds the log into
  /// the file, so one file holds it all.
  public func finish() throws {
    try database.execute("COMMIT; ANALYZE; PRAGMA wal_checkpoint(TRUNCATE)")
  }
}
