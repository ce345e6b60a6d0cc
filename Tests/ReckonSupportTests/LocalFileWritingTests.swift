import Foundation
import ReckonTestSupport
import Testing

@testable import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A file that cannot be written is said in the same plain words as one that cannot be read,
/// with "written" in place of "read", however the write failed.
struct LocalFileWritingTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let code: Int32
    let reading: String
    let writing: String
    var testDescription: String { writing }
  }

  @Test(arguments: [
    Case(code: ENOENT, reading: "f: no such file", writing: "f: no such file or folder"),
    Case(
      code: EACCES, reading: "f: cannot be read: permission denied",
      writing: "f: cannot be written: permission denied"),
    Case(
      code: EISDIR, reading: "f: is a folder, not a file", writing: "f: is a folder, not a file"),
    Case(
      code: ENOSPC, reading: "f: cannot be read: no space left on device",
      writing: "f: cannot be written: no space left on device"),
  ])
  func aSystemErrorIsSaidTheSameWayForReadingAndWriting(_ example: Case) {
    #expect(LocalFileError(path: "f", errno: example.code).description == example.reading)
    #expect(
      LocalFileError(path: "f", errno: example.code, writing: true).description == example.writing)
  }

  /// Replacing a file in a folder that is not there fails while writing, and says so in the
  /// writing words rather than the reading ones.
  @Test func replacingAFileThatIsNotThereSaysSoInTheWritingWords() {
    let path = "/nonexistent-\(UUID().uuidString)/policy.policy"
    let error = #expect(throws: LocalFileError.self) {
      try LocalFile.replaceContents(at: path, with: Data("x".utf8))
    }
    #expect(error?.writing == true)
    #expect(error?.description == "\(path): no such file or folder")
  }

  /// A generated key is never readable by others, even for a moment: `open` makes it 0600 under
  /// the widest umask; an existing file is refused and left as it was.
  @Test func aPrivateFileIsMadeOwnerOnlyAndNeverReplacesAnother() throws {
    let path = TestScratch.folder.appendingPathComponent("private-\(UUID()).p8").path
    let previous = umask(0)
    defer { umask(previous) }
    try LocalFile.createPrivate(at: path, with: Data("secret".utf8))
    let mode = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
    #expect(mode.intValue & 0o777 == 0o600)
    #expect(throws: LocalFileError.self) {
      try LocalFile.createPrivate(at: path, with: Data("other".utf8))
    }
    #expect(FileManager.default.contents(atPath: path) == Data("secret".utf8))
  }
}
