import Foundation
import Testing

@testable import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A path is read only when it names a regular file no larger than its kind's limit: a FIFO, a
/// device or a huge file is refused at once, before a byte of it is read.
struct NonRegularFileTests {
  static func scratch(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name)-\(UUID().uuidString)"
    ).path
  }

  @Test func aFIFOIsRefusedAtOnceRatherThanWaitedOnForAWriter() throws {
    let path = Self.scratch("fifo")
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let started = Date()
    #expect {
      try LocalFile.data(at: path)
    } throws: { error in
      (error as? LocalFileError)?.description
        == "\(path): is a FIFO (named pipe), not a regular file"
    }
    #expect(Date().timeIntervalSince(started) < 1)
  }

  @Test(arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
  func aDeviceIsRefusedBeforeAnythingIsRead(_ path: String) {
    #expect {
      try LocalFile.data(at: path, limit: .policy)
    } throws: { error in
      (error as? LocalFileError)?.problem == .notRegular("a character device")
    }
  }

  @Test func aSymbolicLinkToADeviceIsRefusedLikeTheDevice() throws {
    let path = Self.scratch("zero-link")
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
    defer { unlink(path) }
    #expect(throws: LocalFileError.self) { try LocalFile.text(at: path, limit: .policy) }
  }

  @Test func aFileOverItsLimitIsRefusedNamingTheLimitAndTheSettingThatRaisesIt() throws {
    let path = Self.scratch("big")
    try Data(repeating: 0x61, count: 5 << 20).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    #expect {
      try LocalFile.data(at: path, limit: .policy)
    } throws: { error in
      (error as? LocalFileError)?.description
        == "\(path): is 5 MiB, over the 4 MiB limit for policy files (limits.policyFileBytes raises it)"
    }
    #expect(try LocalFile.data(at: path, limit: .policy.raised(to: 6 << 20)).count == 5 << 20)
  }

  @Test func aLimitWithoutASettingSaysOnlyTheLimit() {
    #expect(
      FileSizeLimit.secret.description == "the 64 KiB limit for keys and certificates")
  }

  @Test(arguments: [
    (0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"),
    (4 << 20, "4 MiB"), (46_000_000, "43.9 MiB"), (3 << 30, "3 GiB"),
  ])
  func sizesAreWrittenInTheLargestBinaryUnit(_ bytes: Int, _ words: String) {
    #expect(FileSizeLimit.size(bytes) == words)
  }

  @Test func aPathThatIsAFIFOIsRefusedBeforeALibraryOpensIt() throws {
    let path = Self.scratch("fifo")
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    #expect(throws: LocalFileError.self) { try LocalFile.refuseIfNotRegular(path) }
    try LocalFile.refuseIfNotRegular(Self.scratch("missing"))
  }
}
