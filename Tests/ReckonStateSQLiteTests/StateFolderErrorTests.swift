import Foundation
import ReckonState
import Testing

@testable import ReckonStateSQLite

/// SQLite says only "unable to open database file" when the state database's folder cannot be
/// written, even for a command that only reads: WAL mode keeps two files beside it. The error
/// says so, naming the folder.
@Suite struct StateFolderErrorTests {
  static let cantOpen = StateError.statementFailed(
    operation: "SELECT 1 FROM sqlite_master LIMIT 1", message: "unable to open database file")

  @Test func aFolderThatCannotBeWrittenIsNamed() {
    let error = SQLiteStateStore.explained(
      Self.cantOpen, path: "/srv/ro/reckon-state.sqlite", isWritable: { _ in false })
    #expect(
      error.description
        == "cannot open the state database /srv/ro/reckon-state.sqlite: its folder /srv/ro is not "
        + "writable by this user, and SQLite keeps reckon-state.sqlite-wal and "
        + "reckon-state.sqlite-shm beside the file, even to read it: make the folder writable, "
        + "or copy the file to one that is")
  }

  @Test func otherFailuresAndWritableFoldersKeepSQLitesWords() {
    #expect(
      SQLiteStateStore.explained(Self.cantOpen, path: "/srv/rw/s.sqlite", isWritable: { _ in true })
        == Self.cantOpen)
    let locked = StateError.statementFailed(operation: "BEGIN", message: "database is locked")
    #expect(
      SQLiteStateStore.explained(locked, path: "/srv/ro/s.sqlite", isWritable: { _ in false })
        == locked)
  }
}
