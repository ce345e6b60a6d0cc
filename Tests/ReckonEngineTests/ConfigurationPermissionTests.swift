import Foundation
import ReckonStateSQLite
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// reckon.json and the policy files decide what Reckon trusts and asks for: one any user may
/// write is warned about, as a key file is.
struct ConfigurationPermissionTests {
  /// A folder with reckon.json and its policy, with the given modes; the configuration's path.
  static func folder(configMode: Int, policyMode: Int) throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-perm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("reckon.json")
    let policy = folder.appendingPathComponent("p.policy")
    try Data("otherwise share data only\n".utf8).write(to: policy)
    try Data(
      #"""
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "state": {"path": "state.sqlite"}}
      """#.utf8
    ).write(to: config)
    try FileManager.default.setAttributes(
      [.posixPermissions: configMode], ofItemAtPath: config.path)
    try FileManager.default.setAttributes(
      [.posixPermissions: policyMode], ofItemAtPath: policy.path)
    return config.path
  }

  @Test func filesAnyUserMayWriteAreEachWarnedAboutWithTheirMode() throws {
    let path = try Self.folder(configMode: 0o666, policyMode: 0o622)
    let warnings = try ReckonConfiguration.load(path: path).permissionWarnings()
    #expect(warnings.count == 2, "\(warnings)")
    #expect(
      warnings.first?.hasPrefix("warning: \(path) can be written by any user (mode 666)") == true)
    #expect(warnings.last?.contains("p.policy can be written by any user (mode 622)") == true)
    #expect(warnings.allSatisfy { $0.hasSuffix("run chmod o-w on it") })
  }

  @Test(arguments: [(0o644, 0o644), (0o664, 0o640), (0o600, 0o444)])
  func filesOthersMayOnlyReadDrawNoWarning(configMode: Int, policyMode: Int) throws {
    let path = try Self.folder(configMode: configMode, policyMode: policyMode)
    #expect(try ReckonConfiguration.load(path: path).permissionWarnings().isEmpty)
  }

  @Test func theServiceFromTheConfigurationWarnsAtStart() throws {
    let path = try Self.folder(configMode: 0o644, policyMode: 0o666)
    var warnings: [String] = []
    _ = try ReckonService(
      configuration: try ReckonConfiguration.load(path: path), state: SQLiteStateOpener(),
      transport: nil, warn: { warnings.append($0) })
    #expect(warnings.contains { $0.contains("p.policy can be written by any user (mode 666)") })
  }
}
