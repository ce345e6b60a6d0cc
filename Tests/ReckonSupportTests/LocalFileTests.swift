import Foundation
import Testing

@testable import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Every file Reckon reads goes through `LocalFile`, which names the path and says plainly why a
/// file could not be read.
struct LocalFileTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let path: String
    let message: String
    var testDescription: String { message }
  }

  static let folder = FileManager.default.temporaryDirectory.path

  @Test(arguments: [
    Case(path: folder, message: "\(folder): is a folder, not a file"),
    Case(path: "/nonexistent/file.json", message: "/nonexistent/file.json: no such file"),
    Case(path: "/etc/hostname/inside", message: "/etc/hostname/inside: no such file"),
  ])
  func aFileThatCannotBeReadIsNamedWithThePlainProblem(_ example: Case) {
    #expect(throws: LocalFileError.self) { try LocalFile.data(at: example.path) }
    do {
      _ = try LocalFile.data(at: example.path)
    } catch {
      #expect(error.description == example.message)
    }
  }

  @Test func aFolderIsRefusedWhenOpenedForMapping() {
    do {
      _ = try LocalFile.openForReading(Self.folder)
      Issue.record("a folder was opened")
    } catch {
      #expect(error.problem == .isFolder)
    }
  }

  /// Tests run as root here, where no file is unreadable, so the mapping is pinned directly.
  @Test func permissionDeniedSaysSo() {
    #expect(
      LocalFileError(path: "key.p8", errno: EACCES).description
        == "key.p8: cannot be read: permission denied")
  }

  @Test func aFileIsReadWhole() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "local-file-\(UUID().uuidString)"
    ).path
    let bytes = Data((0..<200_000).map { UInt8($0 % 251) })
    try bytes.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try LocalFile.data(at: path) == bytes)
  }

  @Test func textThatIsNotUTF8IsRefused() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "local-file-\(UUID().uuidString)"
    ).path
    try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try LocalFile.text(at: path)
      Issue.record("bytes that are not UTF-8 were read as text")
    } catch {
      #expect(error.description == "\(path): is not UTF-8 text")
    }
  }
}
