import Foundation
import ReckonAppStore
import ReckonSQLite
import ReckonStandIn

/// A throwaway folder for a soak: a local CA trusted by the configuration, a fresh App Store key,
/// a SQLite fact source that knows every transaction, and an in-process App Store stand-in.
final class SoakWorkspace: @unchecked Sendable {
  let folder: URL
  let authority: LocalCertificateAuthority
  let standIn: AppStoreStandIn

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-soak-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    authority = try LocalCertificateAuthority()
    try authority.write(to: folder.appendingPathComponent("ca").path)
    let key = try PrivateKey(generatedFor: "soak")
    try key.pkcs8PEM().write(to: folder.appendingPathComponent("key.p8"))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("key.p8").path)
    standIn = try AppStoreStandIn(
      publicKeyPEM: key.publicKeyPEM(),
      expected: .init(
        issuerId: Self.issuerId, keyId: "SOAK123456", bundleIds: ["com.example.coins"]))
    let standInURL = try standIn.start()
    try Self.policy.write(
      to: folder.appendingPathComponent("soak.policy"), atomically: true, encoding: .utf8)
    try SQLiteDatabase(path: path("facts.sqlite"), options: [.readWrite, .create]).execute(
      "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    try configuration(standIn: standInURL).write(
      to: folder.appendingPathComponent("reckon.json"), atomically: true, encoding: .utf8)
  }

  deinit {
    standIn.shutdown()
    try? FileManager.default.removeItem(at: folder)
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Waits until the stand-in has received `count` replies (or `seconds` pass); returns how many.
  func waitForDeliveries(_ count: Int, within seconds: Double) async -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    while standIn.requests.count < count, Date() < deadline {
      try? await Task.sleep(nanoseconds: 200_000_000)
    }
    return standIn.requests.count
  }

  static let issuerId = "00000000-0000-0000-0000-0000000050a4"

  static let policy = """
    policy "soak"
    rule "asked again"
      when history.earlier_requests >= 1
      then refund GRANT_FULL
    otherwise refund DECLINE
    """

  func configuration(standIn: URL) -> String {
    """
    {"apps": [{"bundleId": "com.example.coins", "appAppleId": 1234567890,
               "environment": "Production", "policy": "soak.policy"}],
     "factSources": [{"name": "app-db", "type": "sqlite", "path": "facts.sqlite",
       "queries": {"all": "SELECT 1 AS \\"customer.consented\\", 'DELIVERED' AS \\"delivery.status\\", 0 AS \\"product.sample_offered\\", 10.0 AS \\"usage.consumed\\" FROM t WHERE :transaction_id IS NOT NULL"}}],
     "state": {"path": "state.sqlite"},
     "appStore": {"issuerId": "\(Self.issuerId)", "keyId": "SOAK123456", "privateKeyPath": "key.p8",
                  "baseURL": "\(standIn.absoluteString)"},
     "sender": {"productionRequestsPerSecond": 2000},
     "server": {"listen": "127.0.0.1:0"},
     "trust": {"roots": ["ca/root.pem"]}}
    """
  }

  /// `reckon` beside this benchmark's own executable (both built by `swift build -c release`).
  static func siblingReckon() throws -> String {
    let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let candidate = own.deletingLastPathComponent().appendingPathComponent("reckon").path
    guard FileManager.default.isExecutableFile(atPath: candidate) else {
      throw SoakError.reckonNotBuilt(candidate)
    }
    return candidate
  }
}

/// Why a soak could not run.
enum SoakError: Error, CustomStringConvertible {
  case reckonNotBuilt(String)
  case serverDidNotStart(String)

  var description: String {
    switch self {
    case .reckonNotBuilt(let path):
      "no reckon binary at \(path): run `swift build -c release` first (or pass --reckon PATH)"
    case .serverDidNotStart(let log): "reckon serve did not start:\n\(log)"
    }
  }
}
