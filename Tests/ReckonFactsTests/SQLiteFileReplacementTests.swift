import Foundation
import ReckonPolicy
import ReckonSQLite
import Testing

@testable import ReckonFacts

/// A SQLite source follows its path: a database moved into the path's place is read from the
/// next look on, and while the path names no file each lookup fails (the request waits) rather
/// than answer from the removed one, which the open connections could still read.
struct SQLiteFileReplacementTests {
  static let query =
    #"SELECT used AS "usage.consumed" FROM t WHERE id = :transaction_id"#

  /// A database in `folder` named `name` where transaction 1 used `used` percent.
  static func database(_ folder: URL, _ name: String, used: Int) throws -> String {
    let path = folder.appendingPathComponent(name).path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create, .noMutex])
    try database.execute(
      "CREATE TABLE t (id TEXT, used REAL); INSERT INTO t VALUES ('1', \(used));")
    return path
  }

  @Test(arguments: [true, false])
  func aDatabaseMovedIntoPlaceIsReadAndARemovedOneIsNot(throughFacts: Bool) async throws {
    let folder = try Fixtures.temporaryFolder()
    let path = try Self.database(folder, "facts.sqlite", used: 10)
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": Self.query]), schema: .standard,
      fileCheckEvery: .zero)
    let keys = Fixtures.keys(transaction: "1")
    func used() async throws -> Value? {
      try await (throughFacts ? source.facts(for: keys) : source.lookup(keys))["usage.consumed"]
    }
    #expect(try await used() == .percent(10))

    let export = try Self.database(folder, "export.sqlite", used: 90)
    #expect(rename(export, path) == 0)
    #expect(try await used() == .percent(90), "the file moved into place is read")

    let moved = folder.appendingPathComponent("moved.sqlite").path
    #expect(rename(path, moved) == 0)
    await #expect(throws: SQLiteFactSourceError.self) { try await used() }

    #expect(rename(moved, path) == 0)
    #expect(try await used() == .percent(90), "back in place, it is read again")
  }

  /// Looked at once a period, not on every lookup: within it the file last seen is read.
  @Test func theFileIsLookedAtOnceAPeriod() throws {
    let folder = try Fixtures.temporaryFolder()
    let path = try Self.database(folder, "facts.sqlite", used: 10)
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": Self.query]), schema: .standard,
      fileCheckEvery: .seconds(3_600))
    let export = try Self.database(folder, "export.sqlite", used: 90)
    #expect(rename(export, path) == 0)
    #expect(try source.lookup(Fixtures.keys(transaction: "1"))["usage.consumed"] == .percent(10))
  }
}
