import Foundation
import ReckonAppStore
import ReckonHTTP
import ReckonStandIn

/// Apple's test signing key (MIT, see Tests/Fixtures/apple/LICENSE…) and a stand-in that trusts it.
public enum TestKey {
  /// The issuer id the stand-in expects.
  public static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
  /// The key id the stand-in expects.
  public static let keyId = "ABC123DEFG"
  /// The bundle id the stand-in accepts.
  public static let bundleId = "com.example"

  /// Where the key file is.
  public static var path: String {
    AppleFixtures.url("testSigningKey.p8").path
  }

  /// The key, loaded.
  public static func key() throws -> PrivateKey { try PrivateKey(path: path) }

  /// The key file's text.
  public static func pemText() throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  /// A started stand-in expecting tokens from the test key; call `shutdown()` when done.
  public static func standIn() throws -> (AppStoreStandIn, URL) {
    let standIn = try AppStoreStandIn(
      publicKeyPEM: try key().publicKeyPEM(),
      expected: .init(issuerId: issuerId, keyId: keyId, bundleIds: [bundleId, "com.example.other"]))
    let url = try standIn.start()
    return (standIn, url)
  }

  /// A client signing with the key, sending to `url`.
  public static func client(_ url: URL, keyId: String = keyId) throws -> AppStoreAPIClient {
    AppStoreAPIClient(
      issuerId: issuerId, keyId: keyId, key: try key(), baseURL: url,
      transport: CurlHTTPClient(timeout: 5))
  }
}
