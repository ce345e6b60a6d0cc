import Foundation
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// A state backend the conformance suite runs against: every backend Reckon ships is listed
/// here, and each must pass every test of the suite.
struct StateBackend: CustomTestStringConvertible, Sendable {
  let name: String
  /// A new, empty store of this backend.
  let make: @Sendable () throws -> any StateStore

  var testDescription: String { name }

  /// The embedded SQLite backend, in a file of its own.
  static let sqlite = StateBackend(name: "SQLite") {
    try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent("conformance-\(UUID().uuidString).sqlite")
        .path, rules: .stores)
  }

  /// The in-memory backend the tests use where no file is wanted.
  static let inMemory = StateBackend(name: "in memory") { InMemoryStateStore(rules: .stores) }

  /// The shared PostgreSQL backend, in a database of its own on the test server.
  static let postgres = StateBackend(name: "PostgreSQL") {
    try PostgresStateStore(
      address: PostgresAddress(url: TestPostgres.freshDatabase()), rules: .stores)
  }

  /// Every backend; PostgreSQL only where a server is (see `TestPostgres`).
  static let all: [StateBackend] =
    [.sqlite, .inMemory] + (TestPostgres.isAvailable ? [.postgres] : [])
}
