import Foundation
import ReckonFacts
import ReckonSQLite
import ReckonTestSupport
import Testing

/// A facts file written whole, in one file, replacing the one before.
struct SQLiteFactsFileWriterTests {
  static let schema = "CREATE TABLE purchases (transaction_id TEXT PRIMARY KEY, units INTEGER);"

  @Test func everyRowIsWrittenAndOneFileHoldsThem() throws {
    let path = TestScratch.folder.appendingPathComponent("facts-\(UUID().uuidString).sqlite").path
    let writer = try SQLiteFactsFileWriter(path: path, schema: Self.schema)
    let insert = try writer.insert("INSERT INTO purchases VALUES (?, ?)")
    try insert.run([.text("1000"), .integer(3)])
    try insert.run([.text("1001"), .null])
    try writer.finish()
    #expect(
      (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 == 0)
    let database = try SQLiteDatabase(path: path)
    let rows = try database.query("SELECT transaction_id, units FROM purchases ORDER BY 1")
    #expect(rows.map { $0.text(0) } == ["1000", "1001"])
    #expect(rows.map { $0.int(1) } == [3, nil])
  }

  @Test func aFileThereBeforeIsReplaced() throws {
    let path = TestScratch.folder.appendingPathComponent("facts-\(UUID().uuidString).sqlite").path
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: path))
    let writer = try SQLiteFactsFileWriter(path: path, schema: Self.schema)
    try writer.insert("INSERT INTO purchases VALUES (?, ?)").run([.text("1000"), .integer(1)])
    try writer.finish()
    let database = try SQLiteDatabase(path: path)
    #expect(try database.query("SELECT count(*) FROM purchases").first?.int(0) == 1)
  }
}
