import Foundation
import ReckonFacts
import ReckonSQLite
import Testing

/// Problems a SQLite source's configuration must report at start-up, naming the query.
struct SQLiteFactSourceLoadTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let query: String
    let message: String
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "malformed SQL", query: "SELEC n FROM t",
      message: #"query 'q' does not compile: near "SELEC": syntax error"#),
    Case(
      name: "unknown table", query: "SELECT n FROM nowhere",
      message: "query 'q' does not compile: no such table: nowhere"),
    Case(
      name: "misspelt fact",
      query: #"SELECT n AS "usage.consumd" FROM t WHERE id = :transaction_id"#,
      message: #"query 'q': column "usage.consumd" is not a fact (did you mean 'usage.consumed'?)"#),
    Case(
      name: "column not renamed", query: "SELECT n FROM t",
      message: #"query 'q': column "n" is not a fact"#),
    Case(
      name: "notification fact", query: #"SELECT 'LEGAL' AS "reason" FROM t"#,
      message:
        #"query 'q': column "reason" names a fact that only the signed notification may give"#),
    Case(
      name: "unknown parameter",
      query: #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction"#,
      message: "query 'q': unknown parameter :transaction; use :transaction_id"),
    Case(
      name: "positional parameter",
      query: #"SELECT n AS "usage.consumed_units" FROM t WHERE id = ?"#,
      message: "unknown parameter ?"),
    Case(name: "a write", query: "DELETE FROM t", message: "query 'q' would change the database"),
    // SQLite compiles the first and drops the rest without a word: the second fact was never read.
    Case(
      name: "two statements",
      query: #"SELECT n AS "usage.consumed_units" FROM t; SELECT 'x' AS "custom.note""#,
      message: "query 'q' does not compile: only one statement may be given; more follows the first"
    ),
    Case(
      name: "a write after a read",
      query: #"SELECT n AS "usage.consumed_units" FROM t; DELETE FROM t"#,
      message: "only one statement may be given"),
    Case(
      name: "same fact twice",
      query: #"SELECT n AS "usage.consumed_units", n AS "usage.consumed_units" FROM t"#,
      message: "fact usage.consumed_units is supplied twice"),
  ])
  func aBadQueryFailsAtLoadNamingIt(_ bad: Case) throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT, n INTEGER);")
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try SQLiteFactSource(
        name: "db", settings: .init(path: path, queries: ["q": bad.query]), schema: .standard)
    }
    #expect(error.description.contains(bad.message), "\(error)")
  }

  /// A closing semicolon, spaces and comments after the one statement are fine.
  @Test(arguments: [";", ";  \n", "; -- the end", " /* done */ ;"])
  func aQueryMayEndWithASemicolonOrAComment(_ ending: String) throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT, n INTEGER);")
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"# + ending
    _ = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
  }

  @Test func theSameFactFromTwoQueriesIsRefused() throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT, n INTEGER);")
    let query = #"SELECT n AS "usage.consumed_units" FROM t"#
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try SQLiteFactSource(
        name: "db", settings: .init(path: path, queries: ["a": query, "b": query]),
        schema: .standard)
    }
    #expect(error == .duplicateFact(column: "usage.consumed_units", queries: ["a", "b"]))
  }

  @Test func declaredCustomFactsMayBeColumns() throws {
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, vip INTEGER); INSERT INTO t VALUES ('1', 1);")
    let query = #"SELECT vip AS "custom.vip" FROM t WHERE id = :transaction_id"#
    let undeclared = try #require(throws: SQLiteFactSourceError.self) {
      try SQLiteFactSource(
        name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
    }
    #expect(undeclared.description.contains(#"column "custom.vip" is not a fact"#))
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: Fixtures.schema)
    #expect(try source.lookup(Fixtures.keys(transaction: "1")) == ["custom.vip": .boolean(true)])
  }

  @Test func aMissingFileIsReportedWithItsPath() throws {
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try SQLiteFactSource(
        name: "db", settings: .init(path: "/nonexistent/facts.sqlite", queries: ["q": "SELECT 1"]),
        schema: .standard)
    }
    #expect(
      error.description.hasPrefix(
        "cannot open /nonexistent/facts.sqlite: unable to open database file"))
  }

  @Test func theSourceOpensTheFileReadOnly() throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT);")
    let database = try SQLiteDatabase(path: path, options: [.readOnly, .noMutex])
    let error = try #require(throws: SQLiteError.self) {
      try database.execute("INSERT INTO t VALUES ('x')")
    }
    #expect(error.message.contains("readonly"))
  }
}
