import Foundation
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// What `reckon serve` asks of the SQLite state before and as it opens it.
struct SQLiteStateOpenerTests {
  static func path(_ name: String = "opener-\(UUID().uuidString).sqlite") -> String {
    TestScratch.folder.appendingPathComponent(name).path
  }

  @Test func aPathInAFolderThatDoesNotExistIsRefusedBeforeAnythingIsMade() {
    let folder = TestScratch.folder.appendingPathComponent("missing-\(UUID().uuidString)")
    let path = folder.appendingPathComponent("state.sqlite").path
    #expect(throws: StateError.self) { try SQLiteStateOpener().check(location: path) }
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  @Test func anotherProgramsFileIsRefusedAndLeftAsItWas() throws {
    let path = Self.path()
    let contents = Data("not a database, but someone's notes\n".utf8)
    try contents.write(to: URL(fileURLWithPath: path))
    #expect(throws: StateError.self) { try SQLiteStateOpener().check(location: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
  }

  /// A service started on a file whose state moved to a database would send its held and
  /// pending replies again: the check an embedder's service makes refuses it.
  @Test func aMovedFileIsRefused() throws {
    let path = Self.path()
    let at = Date(timeIntervalSince1970: 1_796_000_000)
    try SQLiteStateStore(path: path, rules: .appStore).markMoved(
      to: "postgres://reckon@db/reckon", at: at)
    #expect(throws: StateError.moved(path: path, to: "postgres://reckon@db/reckon", at: at)) {
      try SQLiteStateOpener().check(location: path)
    }
  }

  @Test func aNewPathPassesAndOpensAnEmptyState() throws {
    let path = Self.path()
    let opener = SQLiteStateOpener()
    try opener.check(location: path)
    let store = try opener.open(location: path, durability: .normal, rules: .appStore)
    #expect(try store.entryCount(states: []) == 0)
    try opener.check(location: path)
  }

  @Test(arguments: ["postgres://reckon@127.0.0.1:1/reckon", "postgresql://db.example/reckon"])
  func aPostgreSQLURLIsRefusedNamingTheOpenerToUse(url: String) {
    let opener = SQLiteStateOpener()
    let advice =
      "it is a PostgreSQL URL: open it with ReckonStatePostgres's "
      + "PostgresStateOpener(passwordFile: configuration.statePasswordFile)"
    #expect {
      try opener.check(location: url)
    } throws: { "\($0)".contains(advice) }
    #expect {
      try opener.open(location: url, durability: .normal, rules: .appStore)
    } throws: { "\($0)".contains(advice) }
  }

  @Test func onlyOneSenderLeaseIsTakenAtATime() throws {
    let path = Self.path()
    let opener = SQLiteStateOpener()
    let first = try opener.takeSenderLease(location: path)
    #expect(throws: SenderLockError.self) { try opener.takeSenderLease(location: path) }
    first.release()
    let again = try opener.takeSenderLease(location: path)
    again.release()
  }
}
