import CSQLite
import ReckonSQLite
import Testing

/// SQLite's process-wide settings, made before the first connection opens.
struct SQLiteSettingsTests {
  /// Memory statistics take one process-wide mutex per allocation, which scans on several
  /// threads then queue for; Reckon reads none of them.
  @Test func sqliteKeepsNoMemoryStatistics() throws {
    let database = try SQLiteDatabase(path: ":memory:", options: [.readWrite, .create])
    try database.execute("CREATE TABLE t (x TEXT)")
    try database.execute("INSERT INTO t VALUES (printf('%.*c', 100000, 'x'))")
    #expect(sqlite3_memory_used() == 0)
  }
}
