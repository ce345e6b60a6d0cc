import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// Keys App Store Connect never issues are refused at load, with a message that says why, before
/// any token is signed: Apple would answer their tokens with 401 at the first send.
@Suite struct PrivateKeyLoadingTests {
  static func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(
      "keys/\(name)"
    ).path
  }

  /// OpenSSL would otherwise ask for a passphrase on the terminal, and `serve` would wait there.
  @Test(arguments: ["encrypted-p256.p8", "legacy-encrypted-p256.pem"])
  func anEncryptedKeyIsRefusedWithoutAskingForAPassphrase(_ name: String) throws {
    let path = Self.fixture(name)
    #expect(throws: SigningError.keyEncrypted(path: path)) { try PrivateKey(path: path) }
    #expect(SigningError.keyEncrypted(path: path).description.contains("openssl pkcs8"))
  }

  @Test(arguments: ["secp256k1.p8", "brainpool-p256r1.p8"])
  func a256BitKeyOnAnotherCurveIsNotP256(_ name: String) throws {
    let path = Self.fixture(name)
    #expect(throws: SigningError.notP256(path: path)) { try PrivateKey(path: path) }
  }

  @Test func aP256KeyLoads() throws {
    _ = try TestKey.key()
  }

  /// Kubernetes and Docker mount secrets as symbolic links, whose own mode is always 777.
  @Test func aKeyReachedThroughASymbolicLinkIsJudgedByItsTarget() throws {
    let folder = TestScratch.folder.appendingPathComponent("key-link-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let target = folder.appendingPathComponent("target.p8").path
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: URL(fileURLWithPath: target))
    let link = folder.appendingPathComponent("AuthKey.p8").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.p8")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
    try PrivateKey.refuseIfReadableByOthers(path: link)
    #expect(PrivateKey.permissionWarning(path: link) == nil)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
    #expect(throws: SigningError.keyFileReadableByOthers(path: link, mode: 0o644)) {
      try PrivateKey.refuseIfReadableByOthers(path: link)
    }
  }
}
