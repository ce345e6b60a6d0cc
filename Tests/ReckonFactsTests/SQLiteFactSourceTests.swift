import Foundation
import ReckonFacts
import ReckonPolicy
import ReckonSQLite
import Testing

struct SQLiteFactSourceTests {
  @Test func exampleDatabaseGivesTheExampleRequestsFacts() async throws {
    let path = try Fixtures.exampleDatabase()
    let source = try SQLiteFactSource(
      name: "app-db", settings: .init(path: path, queries: Fixtures.exampleQueries()),
      schema: Fixtures.schema)
    let facts = try await source.facts(for: Fixtures.exampleKeys)
    #expect(facts["delivery.status"] == .enumeration(0))
    #expect(facts["usage.consumed"] == .percent(100))
    #expect(facts["usage.consumed_units"] == .number(500))
    #expect(facts["usage.last_used"] == .timestamp(1_793_350_000))
    #expect(facts["customer.consented"] == .boolean(true))
    #expect(facts["customer.account_age"] == .duration(400 * 86_400))
    #expect(facts["customer.lifetime_spent"] == .money(59_940, currency: "USD"))
    #expect(facts["customer.refunds_last_90_days"] == .number(0))
    #expect(facts["custom.vip"] == .boolean(false))
    #expect(facts["customer.override"] == nil)
    #expect(source.suppliableFacts?.contains("customer.override") == true)
  }

  @Test func aMissingRowGivesNoFacts() async throws {
    let path = try Fixtures.exampleDatabase()
    let source = try SQLiteFactSource(
      name: "app-db", settings: .init(path: path, queries: Fixtures.exampleQueries()),
      schema: Fixtures.schema)
    #expect(try await source.facts(for: Fixtures.keys(transaction: "1", token: "nobody")).isEmpty)
    #expect(try await source.facts(for: Fixtures.keys(transaction: nil)).isEmpty)
  }

  @Test func nullColumnsAreMissingFacts() throws {
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, used REAL, units INTEGER); INSERT INTO t VALUES ('1', NULL, 3);")
    let query =
      #"SELECT used AS "usage.consumed", units AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
    #expect(
      try source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed_units": .number(3)])
  }

  /// A query slower than the source's timeout is stopped by SQLite at the timeout, on the thread
  /// running it (often one of the Swift pool's few), rather than run on for as long as it takes
  /// after the request gave up on it; the connection then serves the next lookup.
  @Test(arguments: [true, false])
  func aLookupSlowerThanTheTimeoutIsStoppedAtIt(throughFacts: Bool) async throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT); INSERT INTO t VALUES ('1');")
    let slow = """
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000000)
      SELECT count(*) > 0 AS "custom.vip" FROM c WHERE :transaction_id IS NOT NULL
      """
    let schema = Fixtures.schema
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["slow": slow], lookupTimeoutMs: 200),
      schema: schema)
    let started = ContinuousClock.now
    let error = await #expect(throws: SQLiteFactSourceError.self) {
      if throughFacts {
        _ = try await source.facts(for: Fixtures.keys(transaction: "1"))
      } else {
        _ = try source.lookup(Fixtures.keys(transaction: "1"))
      }
    }
    #expect(error == .timedOut(query: "slow", limitMs: 200))
    #expect(ContinuousClock.now - started < .seconds(10), "the query alone runs for minutes")
  }

  /// A connection whose lookup was stopped goes back to the pool out of its read transaction,
  /// however many times: the overdue handler interrupted the COMMIT too, about one in 333, and
  /// every later lookup on that connection then failed to BEGIN.
  @Test func aConnectionStoppedAtItsTimeoutServesTheLookupsAfterIt() throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT); INSERT INTO t VALUES ('1');")
    let slow = """
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000000)
      SELECT count(*) > 0 AS "custom.vip" FROM c
      WHERE :transaction_id IS NOT NULL AND :transaction_id != 'quick'
      """
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["slow": slow], lookupTimeoutMs: 1),
      schema: Fixtures.schema)
    for _ in 0..<700 {
      #expect(throws: SQLiteFactSourceError.timedOut(query: "slow", limitMs: 1)) {
        try source.lookup(Fixtures.keys(transaction: "1"))
      }
    }
    #expect(
      try source.lookup(Fixtures.keys(transaction: "quick")) == ["custom.vip": .boolean(false)])
  }

  @Test func severalRowsUseTheFirst() throws {
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 7), ('1', 9);")
    let query =
      #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id ORDER BY n DESC"#
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
    #expect(
      try source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed_units": .number(9)])
  }

  struct Conversion: CustomTestStringConvertible, Sendable {
    let column: String
    let fact: String
    let expected: Value?
    var testDescription: String { "\(column) as \(fact)" }
  }

  @Test(arguments: [
    Conversion(column: "'37.5%'", fact: "usage.consumed", expected: .percent(37.5)),
    Conversion(column: "37.5", fact: "usage.consumed", expected: .percent(37.5)),
    Conversion(column: "1", fact: "customer.consented", expected: .boolean(true)),
    Conversion(column: "1.0", fact: "customer.consented", expected: .boolean(true)),
    Conversion(column: "0.0", fact: "customer.consented", expected: .boolean(false)),
    Conversion(column: "'false'", fact: "customer.consented", expected: .boolean(false)),
    Conversion(
      column: "'4.99 USD'", fact: "customer.lifetime_spent",
      expected: .money(4_990, currency: "USD")),
    Conversion(column: "'90 days'", fact: "customer.account_age", expected: .duration(7_776_000)),
    Conversion(column: "3600", fact: "customer.account_age", expected: .duration(3_600)),
    Conversion(
      column: "1793350000000", fact: "usage.last_used", expected: .timestamp(1_793_350_000)),
    Conversion(
      column: "'2026-11-01T09:30:00Z'", fact: "usage.last_used", expected: .timestamp(1_793_525_400)
    ),
    Conversion(column: "'UNDELIVERED_OTHER'", fact: "delivery.status", expected: .enumeration(4)),
  ])
  func columnValuesConvertToTheFactsType(_ conversion: Conversion) throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT); INSERT INTO t VALUES ('1');")
    let query =
      "SELECT \(conversion.column) AS \"\(conversion.fact)\" FROM t WHERE id = :transaction_id"
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
    #expect(
      try source.lookup(Fixtures.keys(transaction: "1"))[conversion.fact] == conversion.expected)
  }

  @Test(arguments: [
    ("2", "customer.consented", "expected 0 or 1"),
    ("'DELIVERD'", "delivery.status", "did you mean 'DELIVERED'?"),
    ("4.99", "customer.lifetime_spent", "select text such as '4.99 USD'"),
    ("150", "usage.consumed", "from 0 to 100"),
    ("x'00'", "usage.consumed_units", "cannot come from BLOB"),
    // Values no fact can hold, as REAL or as text: they compared as infinities.
    ("1e999", "usage.consumed_units", "is not a finite number"),
    ("'1e308 weeks'", "customer.account_age", "is not a finite duration"),
    ("99999999999999999", "usage.last_used", "is not a time in years 1 to 9999"),
    // Seconds where milliseconds belong: it read as 21 January 1970.
    ("1793350000", "usage.last_used", "1793350000 looks like seconds"),
    ("0.5", "customer.consented", "expected 0 or 1"),
  ])
  func wrongTypesNameTheQueryAndColumn(column: String, fact: String, hint: String) throws {
    let path = try Fixtures.database("CREATE TABLE t (id TEXT); INSERT INTO t VALUES ('1');")
    let query = "SELECT \(column) AS \"\(fact)\" FROM t WHERE id = :transaction_id"
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["usage": query]), schema: .standard)
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try source.lookup(Fixtures.keys(transaction: "1"))
    }
    guard case .wrongType(let name, let column, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(name == "usage" && column == fact)
    #expect(error.description.contains(hint))
  }

  // SQLite by default reads a double-quoted word that names no column as text, so a typo in a
  // column name would compare with a constant and quietly find nothing.
  @Test func aDoubleQuotedWordThatNamesNoColumnIsRefusedNotReadAsText() throws {
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, status TEXT); INSERT INTO t VALUES ('1', 'active');")
    func source(_ condition: String) throws(SQLiteFactSourceError) -> SQLiteFactSource {
      let query =
        "SELECT 1 AS \"customer.consented\" FROM t WHERE id = :transaction_id AND \(condition)"
      return try SQLiteFactSource(
        name: "db", settings: .init(path: path, queries: ["consent": query]), schema: .standard)
    }
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try source("\"statsu\" = 'active'")
    }
    #expect(error.description.contains("no such column: statsu"), "\(error)")
    #expect(
      try source("\"status\" = 'active'").lookup(Fixtures.keys(transaction: "1"))[
        "customer.consented"] == .boolean(true))
  }

  @Test func aLockedDatabaseFailsAfterTheBusyTimeout() throws {
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 1);")
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query], busyTimeoutMs: 50),
      schema: .standard)
    let writer = try SQLiteDatabase(path: path, options: [.readWrite, .noMutex])
    try writer.execute("BEGIN EXCLUSIVE; UPDATE t SET n = 2;")
    let started = ContinuousClock.now
    let error = try #require(throws: SQLiteFactSourceError.self) {
      try source.lookup(Fixtures.keys(transaction: "1"))
    }
    #expect(ContinuousClock.now - started >= .milliseconds(40))
    #expect(error.description.contains("query 'q' failed: database is locked"))
    try writer.execute("COMMIT;")
    #expect(
      try source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed_units": .number(2)])
  }

  @Test func concurrentLookupsEachGetTheirOwnConnection() async throws {
    let path = try Fixtures.exampleDatabase()
    let source = try SQLiteFactSource(
      name: "app-db", settings: .init(path: path, queries: Fixtures.exampleQueries()),
      schema: Fixtures.schema)
    let expected = try source.lookup(Fixtures.exampleKeys)
    let results = await withTaskGroup(of: [String: Value]?.self) { group in
      for _ in 0..<200 { group.addTask { try? source.lookup(Fixtures.exampleKeys) } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 200 && results.allSatisfy { $0 == expected })
  }
}

struct PlainValueReaderTests {
  @Test(arguments: [
    "4.99 USD", "-3 EUR", "59.940 USD", "0.5 JPY", "12 USD", "DELIVERED", "37.5%", "100%", "true",
    "false",
  ])
  func plainSpellingsAgreeWithTheLanguagesParser(_ text: String) throws {
    let types: [ValueType] = [.money, .enumeration(FactSchema.deliveryStatus), .percent, .boolean]
    for type in types {
      let parsed = try? ValueParser.parse(text, as: type)
      let plain = try? SQLiteFactSourceTests.convert(text, as: type)
      #expect(plain == parsed, "\(text) as \(type)")
    }
  }
}

extension SQLiteFactSourceTests {
  /// A TEXT column's value converted through the SQLite source, as a fact of `type`.
  static func convert(_ text: String, as type: ValueType) throws -> Value? {
    let name: String
    switch type {
    case .money: name = "customer.lifetime_spent"
    case .percent: name = "usage.consumed"
    case .boolean: name = "customer.consented"
    default: name = "delivery.status"
    }
    let path = try Fixtures.database(
      "CREATE TABLE t (id TEXT, v TEXT); INSERT INTO t VALUES ('1', '\(text)');")
    let query = "SELECT v AS \"\(name)\" FROM t WHERE id = :transaction_id"
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query]), schema: .standard)
    return try source.lookup(Fixtures.keys(transaction: "1"))[name]
  }
}
