import Foundation
import ReckonFacts
import ReckonSQLite

/// The same prepared statements run straight through the SQLite API, in one read transaction per
/// request, reading each column without converting it to a fact: SQLite's own cost.
struct FactsBenchmarkRaw {
  let database: SQLiteDatabase
  let statements: [SQLiteStatement]
  let bindings: [[(Int32, RequestKeys.Field)]]
  let columnCounts: [Int32]
  let begin: SQLiteStatement
  let end: SQLiteStatement

  init(database path: String, queries: [String: String]) throws {
    let database = try SQLiteDatabase(path: path)
    try database.execute("PRAGMA mmap_size = \(1 << 30)")
    let statements = try queries.sorted { $0.key < $1.key }.map { try database.prepare($0.value) }
    self.database = database
    self.statements = statements
    bindings = statements.map { statement in
      RequestKeys.Field.allCases.compactMap { field in
        statement.parameterIndex(field.parameter).map { ($0, field) }
      }
    }
    columnCounts = statements.map { Int32($0.columnNames.count) }
    self.begin = try database.prepare("BEGIN")
    self.end = try database.prepare("COMMIT")
  }

  /// Runs the statements for one request.
  func run(_ key: RequestKeys) throws {
    _ = try begin.step()
    begin.reset()
    defer {
      _ = try? end.step()
      end.reset()
    }
    for (position, statement) in statements.enumerated() {
      defer { statement.reset() }
      for (index, field) in bindings[position] { try statement.bind(key[field], at: index) }
      guard try statement.step() else { continue }
      for column in 0..<columnCounts[position] { _ = statement.column(column) }
    }
  }
}
