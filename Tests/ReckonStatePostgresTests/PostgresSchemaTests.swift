import Foundation
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Synchronization
import Testing

/// Reckon's schema in a PostgreSQL database: made once however many instances start together,
/// and never put beside another program's tables or under a newer Reckon's.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct PostgresSchemaTests {
  @Test func instancesStartingTogetherMigrateOnce() throws {
    let url = try TestPostgres.freshDatabase()
    let versions = Mutex([Int]())
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let version = Result {
        try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
          .schemaVersion()
      }
      versions.withLock { $0.append((try? version.get()) ?? -1) }
    }
    #expect(
      versions.withLock { $0 }
        == [Int](repeating: PostgresStateStore.newestSchema, count: 4))
  }

  @Test func aDatabaseHoldingAnotherProgramsRequestsTableIsRefusedUntouched() throws {
    let url = try TestPostgres.freshDatabase()
    let address = try PostgresAddress(url: url)
    try address.administer("CREATE TABLE requests (id integer)")
    #expect(throws: StateError.notAStateDatabase(path: url)) {
      try PostgresStateStore(address: address, rules: .appStore)
    }
    try address.administer("SELECT id FROM requests")
    #expect(throws: StateError.self) { try address.administer("SELECT 1 FROM schema_migrations") }
  }

  /// Any table of another program's, or a version table another migration tool made, is not
  /// a Reckon state: refused, with nothing made beside it.
  @Test(arguments: [
    "CREATE TABLE users (id integer)",
    "CREATE TABLE schema_migrations (version bigint PRIMARY KEY, dirty boolean NOT NULL)",
    "CREATE TABLE schema_migrations (version text PRIMARY KEY)",
  ])
  func aDatabaseOfAnotherProgramIsRefusedUntouched(_ made: String) throws {
    let url = try TestPostgres.freshDatabase()
    let address = try PostgresAddress(url: url)
    try address.administer(made)
    #expect(throws: StateError.notAStateDatabase(path: url)) {
      try PostgresStateStore(address: address, rules: .appStore)
    }
    #expect(throws: StateError.self) { try address.administer("SELECT 1 FROM outbox") }
  }

  @Test func aDatabaseANewerReckonMigratedIsRefused() throws {
    let url = try TestPostgres.freshDatabase()
    let address = try PostgresAddress(url: url)
    _ = try PostgresStateStore(address: address, rules: .appStore)
    try address.administer("INSERT INTO schema_migrations VALUES (99, 0)")
    #expect(
      throws: StateError.newerSchema(
        path: url, found: 99, known: PostgresStateStore.newestSchema)
    ) {
      try PostgresStateStore(address: address, rules: .appStore)
    }
  }
}
