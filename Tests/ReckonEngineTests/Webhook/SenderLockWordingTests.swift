import Foundation
import ReckonState
import ReckonStateSQLite
import Testing

@testable import ReckonEngine

/// A sender lock that cannot be taken says why in the words every file error uses, not in the
/// system's capitalised `strerror` text.
struct SenderLockWordingTests {
  @Test func aLockFileInAMissingFolderSaysSoInTheFileErrorWords() throws {
    let path = "/nonexistent-\(UUID())/state.sqlite"
    let error = try #require(throws: SenderLockError.self) { try SenderLock(statePath: path) }
    #expect(
      error.description
        == "cannot take the sender lock \(path).send.lock: no such file or folder")
  }
}
