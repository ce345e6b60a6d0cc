import Foundation
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A state database whose folder does not exist is refused naming the folder, not with SQLite's
/// "unable to open database file" or as a sender lock the operator never configured.
struct StateFolderTests {
  @Test func aStateDatabaseInAMissingFolderNamesTheFolder() {
    let folder = "/nonexistent-\(UUID().uuidString)"
    let error = #expect(throws: StateError.self) {
      _ = try SQLiteStateStore(path: folder + "/state.sqlite", rules: .appStore)
    }
    #expect(
      error?.description
        == "cannot open the state database \(folder)/state.sqlite: its folder \(folder) does not exist"
    )
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  @Test func aStateDatabaseBesideAFileInsteadOfAFolderIsRefusedToo() throws {
    let file = TestScratch.folder.appendingPathComponent("not-a-folder-\(UUID().uuidString)").path
    _ = FileManager.default.createFile(atPath: file, contents: Data())
    #expect(throws: StateError.self) {
      _ = try SQLiteStateStore(path: file + "/state.sqlite", rules: .appStore)
    }
  }
}
