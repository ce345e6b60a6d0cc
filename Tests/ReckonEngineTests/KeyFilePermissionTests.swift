import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonTestSupport
import Testing

/// The `.p8` key's file permissions, as every command that loads it from `reckon.json` sees them
/// (`SenderSetup.client`): any user able to read it is refused, a group able to read it is warned.
@Suite struct KeyFilePermissionTests {
  /// A folder with `reckon.json` naming a copy of the test key with `mode`; returns the config.
  static func configuration(keyMode: Int) throws -> (ReckonConfiguration, keyPath: String) {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-keymode-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = folder.appendingPathComponent("AuthKey.p8")
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: key)
    try FileManager.default.setAttributes([.posixPermissions: keyMode], ofItemAtPath: key.path)
    let json = """
      {"apps": [{"bundleId": "\(TestKey.bundleId)", "environment": "Sandbox", "policy": "p.policy"}],
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)", "privateKeyPath": "AuthKey.p8"}}
      """
    let path = folder.appendingPathComponent("reckon.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return (try ReckonConfiguration.load(path: path), key.path)
  }

  @Test(arguments: [0o644, 0o604, 0o666, 0o755])
  func aKeyFileAnyUserCanReadIsRefusedNamingThePath(mode: Int) throws {
    let (configuration, keyPath) = try Self.configuration(keyMode: mode)
    let warnings = WarningLog()
    #expect {
      _ = try SenderSetup.client(
        configuration, transport: CurlHTTPClient(), warn: warnings.append)
    } throws: { error in
      guard case .key(.keyFileReadableByOthers(let path, _)) = error as? SenderSetup.Failure else {
        return false
      }
      let text = "\(error)"
      return path == keyPath && text.contains(keyPath) && text.contains("chmod 600")
        && !text.contains("PRIVATE KEY")
    }
  }

  @Test func aKeyFileItsGroupCanReadLoadsWithAWarning() throws {
    let (configuration, keyPath) = try Self.configuration(keyMode: 0o640)
    let warnings = WarningLog()
    _ = try SenderSetup.client(
      configuration, transport: CurlHTTPClient(), warn: warnings.append)
    #expect(warnings.lines.count == 1)
    #expect(warnings.lines.first?.contains(keyPath) == true)
    #expect(warnings.lines.first?.contains("its group") == true)
  }

  @Test func aKeyFileOnlyItsOwnerCanReadLoadsWithoutAWarning() throws {
    let (configuration, _) = try Self.configuration(keyMode: 0o600)
    let warnings = WarningLog()
    _ = try SenderSetup.client(
      configuration, transport: CurlHTTPClient(), warn: warnings.append)
    #expect(warnings.lines.isEmpty)
  }

  @Test func aLocalTestCAWritesItsKeyOnlyItsOwnerCanRead() throws {
    let folder = TestScratch.folder.appendingPathComponent("ca-\(UUID())")
    try LocalCertificateAuthority().write(to: folder.path)
    let key = folder.appendingPathComponent(LocalCertificateAuthority.FileName.leafKey).path
    let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
    #expect(mode.map { $0 & 0o777 } == 0o600)
  }
}

/// Warnings collected from a `warn` callback.
final class WarningLog: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [String] = []

  func append(_ line: String) { lock.withLock { collected.append(line) } }

  var lines: [String] { lock.withLock { collected } }
}
