import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// A key file open to other users is refused or warned about with what they may do with it: a
/// file others may only write is not "read by any user".
struct KeyPermissionWordingTests {
  @Test(
    arguments: [
      (0o644, "can be read by any user (mode 644)"),
      (0o602, "can be written by any user (mode 602)"),
      (0o622, "can be written by any user (mode 622)"),
      (0o606, "can be read and written by any user (mode 606)"),
      (0o601, "can be executed by any user (mode 601)"),
    ] as [(UInt16, String)])
  func theRefusalSaysWhatAnyUserMayDo(mode: UInt16, words: String) {
    let text = SigningError.keyFileReadableByOthers(path: "/k.p8", mode: mode).description
    #expect(text == "the App Store key file /k.p8 \(words); run chmod 600 on it")
  }

  @Test(
    arguments: [
      (0o640, "is readable by its group (mode 640)"),
      (0o620, "is writable by its group (mode 620)"),
      (0o660, "is readable and writable by its group (mode 660)"),
      (0o604, "is readable by others (mode 604)"), (0o602, "is writable by others (mode 602)"),
    ] as [(Int, String)])
  func theWarningSaysWhatTheGroupOrOthersMayDo(mode: Int, words: String) throws {
    let path = TestScratch.folder.appendingPathComponent("key-\(UUID().uuidString).p8").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    #expect(
      PrivateKey.permissionWarning(path: path)
        == "warning: the App Store key file \(path) \(words); run chmod 600 on it")
  }

  @Test func aKeyOnlyItsOwnerMayUseHasNoWarning() throws {
    let path = TestScratch.folder.appendingPathComponent("key-\(UUID().uuidString).p8").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    #expect(PrivateKey.permissionWarning(path: path) == nil)
  }
}
