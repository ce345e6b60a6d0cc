import Foundation
import ReckonPolicy
import Testing

@testable import ReckonFacts

/// One fact source serving App Store apps and Google Play apps at once is opened by each store's
/// schema: what only the other store reads is let through, the product and purchase facts a
/// Google review takes from the app's records are left out where Apple's notification gives
/// them, and an override in the other store's words fails only a lookup that would use it.
struct SourcesOfBothStoresTests {
  static let appStore = FactSchema.standard.readingSources(alongside: [.appStore, .googlePlay])
  static let googlePlay = FactSchema.googlePlay.readingSources(alongside: [.appStore, .googlePlay])

  @Test func theAppStorePassesOverWhatGooglesReviewsTakeFromSources() {
    #expect(Self.appStore.otherStores.stores == [.googlePlay])
    #expect(
      Self.appStore.otherStores.passedOverFacts == [
        "product.id", "purchase.date", "purchase.price",
      ])
    #expect(
      Self.appStore.otherStores.values == [
        "customer.override": ["APPROVE": .googlePlay, "NEUTRAL": .googlePlay]
      ])
  }

  @Test func googlePlayKeepsApplesOverridesApartAndPassesOverNothing() {
    #expect(Self.googlePlay.otherStores.stores == [.appStore])
    #expect(Self.googlePlay.otherStores.passedOverFacts.isEmpty)
    #expect(
      Self.googlePlay.otherStores.values == [
        "customer.override": ["GRANT_FULL": .appStore, "GRANT_PRORATED": .appStore]
      ])
  }

  @Test(arguments: [[], [FactSchema.Store.appStore]])
  func aSourceOfOneStoreIsReadStrictly(_ stores: [FactSchema.Store]) {
    let schema = FactSchema.standard.readingSources(alongside: stores)
    #expect(schema.otherStores.stores.isEmpty)
    #expect(schema.otherStores.passedOverFacts.isEmpty)
    #expect(schema.otherStoresValue("APPROVE", forFact: "customer.override") == nil)
  }

  static let sharedFile = #"""
    {
      "byTransactionId": {
        "GPA.1": {"product.id": "coins.500", "purchase.price": "4.99 USD",
                  "purchase.date": "2026-11-01T09:30:00Z", "usage.consumed": "40%",
                  "customer.override": "APPROVE"},
        "2000000000000001": {"usage.consumed": "10%", "customer.override": "GRANT_FULL"},
        "2000000000000002": {"usage.consumed": "20%", "customer.override": "DECLINE"}
      },
      "byAppAccountToken": {
        "acct-1": {"customer.consented": true, "customer.override": "NEUTRAL"}
      }
    }
    """#

  @Test(arguments: [FactSchema.Store.appStore, .googlePlay])
  func theQuickReaderReadsAFileOfBothStores(_ store: FactSchema.Store) throws {
    var reader = JSONFactsFileReader(schema: store == .appStore ? Self.appStore : Self.googlePlay)
    #expect(reader.read(Data(Self.sharedFile.utf8), file: 0) != nil)
  }

  @Test(arguments: [true, false])
  func aFileOfBothStoresReadsForTheAppStore(quickly: Bool) throws {
    let path = try write(Self.sharedFile)
    let file = try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    let apple = try file.facts(for: Fixtures.keys(transaction: "2000000000000001"))
    #expect(apple == ["usage.consumed": .percent(10), "customer.override": .enumeration(0)])
    // The transaction's own override wins, so the account's Google word is never used.
    let declined = try file.facts(
      for: Fixtures.keys(transaction: "2000000000000002", token: "acct-1"))
    #expect(declined["customer.override"] == .enumeration(2))
    #expect(declined["customer.consented"] == .boolean(true))
  }

  @Test(arguments: [true, false])
  func anOverrideInGooglesWordsIsLeftOutOfAnAppStoreLookupAndNamed(quickly: Bool) throws {
    let path = try write(Self.sharedFile)
    let file = try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    let failure = #expect(throws: JSONFileFactSourceError.self) {
      try file.facts(for: Fixtures.keys(transaction: "2000000000000009", token: "acct-1"))
    }
    let words = try #require(failure.flatMap { FactsInOtherStoresWords.in($0) })
    #expect(words.facts == ["customer.consented": .boolean(true)])
    #expect(words.unreadFacts == ["customer.override"])
    #expect(
      failure?.description
        == "\(path): byAppAccountToken.acct-1: customer.override: NEUTRAL is a Google Play value; "
        + "an App Store request takes GRANT_FULL, GRANT_PRORATED, DECLINE, NO_PREFERENCE or "
        + "DO_NOT_RESPOND")
    let order = #expect(throws: JSONFileFactSourceError.self) {
      try file.facts(for: Fixtures.keys(transaction: "GPA.1"))
    }
    #expect(
      order.flatMap { FactsInOtherStoresWords.in($0) }?.facts == ["usage.consumed": .percent(40)])
  }

  /// An account id that is no UUID (Google's obfuscated one) is the app's own text: two ids
  /// that differ in case are two customers, in a file read quickly or thoroughly.
  @Test(arguments: [true, false])
  func anAccountIdThatIsNoUUIDMatchesInItsOwnCase(quickly: Bool) async throws {
    let path = try write(
      #"{"byAppAccountToken": {"Acct-Mixed": {"customer.consented": true}, "acct-mixed": {"usage.consumed": "5%"}}}"#
    )
    let facts = try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    #expect(
      try facts.facts(for: Fixtures.keys(transaction: nil, token: "Acct-Mixed"))
        == ["customer.consented": .boolean(true)])
    #expect(
      try facts.facts(for: Fixtures.keys(transaction: nil, token: "acct-mixed"))
        == ["usage.consumed": .percent(5)])
    #expect(try facts.facts(for: Fixtures.keys(transaction: nil, token: "ACCT-MIXED")).isEmpty)
  }

  /// The account's entry is named as the file writes its key, not as the lookup lowercased it.
  @Test(arguments: [true, false])
  func anAccountIsNamedAsTheFileWritesIt(quickly: Bool) throws {
    let path = try write(
      #"{"byAppAccountToken": {"7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B": {"customer.override": " APPROVE "}}}"#
    )
    let file = try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    let failure = #expect(throws: JSONFileFactSourceError.self) {
      try file.facts(
        for: Fixtures.keys(transaction: nil, token: "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"))
    }
    #expect(
      failure?.description.hasPrefix(
        "\(path): byAppAccountToken.7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B: customer.override: APPROVE is a Google Play value"
      )
        == true, "\(String(describing: failure))")
  }

  /// A transaction's own value in another store's words still hides the account's.
  @Test(arguments: [true, false])
  func aTransactionsOtherStoreWordHidesTheAccountsValue(quickly: Bool) throws {
    let path = try write(
      #"""
      {"byTransactionId": {"1": {"customer.override": "APPROVE"}},
       "byAppAccountToken": {"a": {"customer.override": "DECLINE", "usage.consumed": "5%"}}}
      """#)
    let file = try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    let failure = #expect(throws: JSONFileFactSourceError.self) {
      try file.facts(for: Fixtures.keys(transaction: "1", token: "a"))
    }
    let words = try #require(failure.flatMap { FactsInOtherStoresWords.in($0) })
    #expect(words.facts == ["usage.consumed": .percent(5)])
    #expect(words.values.map(\.place) == ["\(path): byTransactionId.1"])
  }

  @Test func theQuickAndTheThoroughReadingAgreeForEachStore() throws {
    let path = try write(Self.sharedFile)
    for schema in [Self.appStore, Self.googlePlay] {
      let quick = try JSONFactsFile(files: [path], schema: schema, quickly: true)
      let thorough = try JSONFactsFile(files: [path], schema: schema, quickly: false)
      #expect(quick.entries == thorough.entries)
    }
  }

  @Test(arguments: [true, false])
  func theSameFileReadsForGooglePlayWithItsProductFacts(quickly: Bool) throws {
    let path = try write(Self.sharedFile)
    let file = try JSONFactsFile(files: [path], schema: Self.googlePlay, quickly: quickly)
    let google = try file.facts(for: Fixtures.keys(transaction: "GPA.1"))
    #expect(google["product.id"] == .text("coins.500"))
    #expect(google["purchase.price"] != nil)
    #expect(google["customer.override"] == .enumeration(0))
    let failure = #expect(throws: JSONFileFactSourceError.self) {
      try file.facts(for: Fixtures.keys(transaction: "2000000000000001"))
    }
    #expect(
      failure?.description.hasSuffix(
        "customer.override: GRANT_FULL is an App Store value; a Google Play request takes "
          + "APPROVE, DECLINE, NEUTRAL, NO_PREFERENCE or DO_NOT_RESPOND") == true)
  }

  @Test(arguments: [true, false])
  func aFileForTheAppStoreAloneStillRefusesGooglesFacts(quickly: Bool) throws {
    let path = try write(Self.sharedFile)
    let error = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: .standard, quickly: quickly)
    }
    #expect(error?.description.contains("GPA.1") == true)
  }

  /// A passed-over fact is still read by its type, so the two readings agree on a bad one.
  @Test(arguments: [true, false])
  func aPassedOverFactOfTheWrongTypeIsStillRefused(quickly: Bool) throws {
    let path = try write(#"{"byTransactionId": {"GPA.1": {"purchase.price": "cheap"}}}"#)
    #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: Self.appStore, quickly: quickly)
    }
  }

  static let sharedDatabase = """
    CREATE TABLE purchases (id TEXT PRIMARY KEY, product TEXT, price TEXT, consumed REAL,
      preference TEXT);
    INSERT INTO purchases VALUES ('GPA.1', 'coins.500', '4.99 USD', 40, 'APPROVE');
    INSERT INTO purchases VALUES ('2000000000000001', 'coins.500', '4.99 USD', 10, 'GRANT_FULL');
    """
  static let sharedQuery = """
    SELECT product AS "product.id", price AS "purchase.price", consumed AS "usage.consumed",
      preference AS "customer.override" FROM purchases WHERE id = :transaction_id
    """

  @Test func aDatabaseOfBothStoresIsQueriedByEach() async throws {
    let path = try Fixtures.database(Self.sharedDatabase)
    let settings = SQLiteFactSource.Settings(path: path, queries: ["purchase": Self.sharedQuery])
    let apple = try SQLiteFactSource(name: "app-db", settings: settings, schema: Self.appStore)
    #expect(apple.suppliableFacts == ["usage.consumed", "customer.override"])
    let facts = try await apple.facts(for: Fixtures.keys(transaction: "2000000000000001"))
    #expect(facts == ["usage.consumed": .percent(10), "customer.override": .enumeration(0)])
    let failure = await #expect(throws: SQLiteFactSourceError.self) {
      try await apple.facts(for: Fixtures.keys(transaction: "GPA.1"))
    }
    #expect(
      failure?.description
        == "query 'purchase': customer.override: APPROVE is a Google Play value; an "
        + "App Store request takes GRANT_FULL, GRANT_PRORATED, DECLINE, NO_PREFERENCE or "
        + "DO_NOT_RESPOND")
    #expect(
      failure.flatMap { FactsInOtherStoresWords.in($0) }?.facts == ["usage.consumed": .percent(40)])
    let google = try SQLiteFactSource(name: "app-db", settings: settings, schema: Self.googlePlay)
    let review = try await google.facts(for: Fixtures.keys(transaction: "GPA.1"))
    #expect(review["product.id"] == .text("coins.500"))
    #expect(throws: SQLiteFactSourceError.notificationFact(query: "purchase", column: "product.id"))
    {
      try SQLiteFactSource(name: "app-db", settings: settings, schema: .standard)
    }
  }

  /// A value no store's word reads as is refused naming the other store's words too: the
  /// closest, else them all; a source of one store's apps names only its own.
  @Test(arguments: [
    ("APROVE", "; did you mean 'APPROVE', a Google Play value?"),
    ("FOO", "; or, for Google Play requests, APPROVE or NEUTRAL"),
    ("DECLIN", nil),
  ])
  func aTypoIsOfferedTheOtherStoresWords(written: String, hint: String?) async throws {
    let path = try write(#"{"byTransactionId": {"1": {"customer.override": "\#(written)"}}}"#)
    for quickly in [true, false] {
      for (schema, expected) in [(Self.appStore, hint), (FactSchema.standard, nil)] {
        let refused = #expect(throws: JSONFileFactSourceError.self) {
          try JSONFactsFile(files: [path], schema: schema, quickly: quickly)
        }
        let message = refused.map(String.init(describing:)) ?? ""
        #expect(message.contains("'\(written)' is not an override"), "\(message)")
        #expect(message.contains("Google Play") == (expected != nil), "\(message)")
        if let expected { #expect(message.contains(expected), "\(message)") }
      }
    }
    let database = try Fixtures.database(
      "CREATE TABLE p (id TEXT, preference TEXT); INSERT INTO p VALUES ('1', '\(written)');")
    let settings = SQLiteFactSource.Settings(
      path: database,
      queries: ["p": #"SELECT preference AS "customer.override" FROM p WHERE id = :transaction_id"#]
    )
    let source = try SQLiteFactSource(name: "db", settings: settings, schema: Self.appStore)
    let failure = await #expect(throws: SQLiteFactSourceError.self) {
      try await source.facts(for: Fixtures.keys(transaction: "1"))
    }
    let message = failure.map(String.init(describing:)) ?? ""
    #expect(message.contains("Google Play") == (hint != nil), "\(message)")
    if let hint { #expect(message.contains(hint), "\(message)") }
  }

  /// A fact given twice is refused by the App Store's reading too, though it does not read it:
  /// Google's reading refuses it, and the two must agree for doctor to say what serve does.
  @Test func aPassedOverFactGivenByTwoQueriesIsRefused() throws {
    let path = try Fixtures.database(Self.sharedDatabase)
    let settings = SQLiteFactSource.Settings(
      path: path,
      queries: [
        "a": #"SELECT product AS "product.id" FROM purchases WHERE id = :transaction_id"#,
        "b": #"SELECT product AS "product.id" FROM purchases WHERE id = :transaction_id"#,
      ])
    for schema in [Self.appStore, Self.googlePlay] {
      #expect(
        throws: SQLiteFactSourceError.duplicateFact(column: "product.id", queries: ["a", "b"])
      ) {
        try SQLiteFactSource(name: "app-db", settings: settings, schema: schema)
      }
    }
  }

  @Test func aBulkScanOfBothStoresLeavesOutWhatTheNotificationGives() throws {
    let path = try Fixtures.database(Self.sharedDatabase)
    let sql = """
      SELECT id AS transaction_id, product AS "product.id", consumed AS "usage.consumed",
        preference AS "customer.override" FROM purchases ORDER BY id
      """
    let scan = try SQLiteBulkFactScan(path: path, sql: sql, schema: Self.appStore)
    #expect(
      scan.query.hasPrefix(#"SELECT "transaction_id", "usage.consumed", "customer.override""#))
    let row = try scan.facts(for: "2000000000000001")
    let consumed = Self.appStore.policySchema.slot(ofFact: "usage.consumed")
    #expect(row?.count == 2)
    #expect(row?.contains { $0.slot == consumed && $0.value == .percent(10) } == true)
    #expect(scan.otherStoresValues.isEmpty)
    let google = try scan.facts(for: "GPA.1")
    #expect(google?.count == 1)
    #expect(scan.otherStoresValues.map(\.value) == ["APPROVE"])
    #expect(try scan.facts(for: "GPA.2") == nil)
    #expect(scan.otherStoresValues.isEmpty)
    #expect(
      throws: SQLiteFactSourceError.notificationFact(query: "bulkQuery", column: "product.id")
    ) {
      try SQLiteBulkFactScan(path: path, sql: sql, schema: .standard)
    }
  }

  private func write(_ json: String) throws -> String {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(json, to: file)
    return file.path
  }
}
