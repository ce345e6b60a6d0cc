import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport
import Testing

/// `appStore.baseURL` decides where the bearer token goes: https, or plain http on loopback only.
@Suite struct AppStoreBaseURLTests {
  static func load(baseURL: String) throws(ConfigurationError) -> ReckonConfiguration {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "appStore": {"issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "k", "privateKeyPath": "key.p8", "baseURL": "\(baseURL)"}}
      """
    let root = (try? JSONValue.parse(Data(json.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: "reckon.json"), baseDirectory: "/tmp")
  }

  @Test(arguments: [
    "https://api.storekit-sandbox.apple.com", "http://127.0.0.1:8080", "http://127.1.2.3/x",
    "http://localhost:9000", "http://[::1]:9000",
  ])
  func httpsOrLoopbackHTTPIsAccepted(baseURL: String) throws {
    #expect(try Self.load(baseURL: baseURL).appStoreKey?.baseURL == baseURL)
  }

  @Test(arguments: [
    "http://127.0.0.1.example.com", "http://localhost.example.com", "http://localhostile.net",
    "http://127.0.0.1@example.com", "http://10.0.0.1:8080", "ftp://127.0.0.1", "api.example.com",
  ])
  func aPlainHTTPHostThatIsNotLoopbackIsRefused(baseURL: String) {
    #expect {
      _ = try Self.load(baseURL: baseURL)
    } throws: { error in
      "\(error)".contains("must be https, or http on loopback")
    }
  }

  /// A key or issuer id copied with a space, line break or invisible character would sign tokens
  /// Apple refuses.
  @Test(arguments: [
    (#""issuerId": " 57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG""#, "issuerId"),
    (#""issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG\n""#, "keyId"),
    (#""issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG\u200b""#, "keyId"),
    (
      #""issuerId": "\ufeff57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG""#,
      "issuerId"
    ),
  ])
  func anIdWithSpaceOrLineBreakIsRefused(_ ids: String, _ key: String) {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "appStore": {\(ids), "privateKeyPath": "key.p8"}}
      """
    let root = (try? JSONValue.parse(Data(json.utf8)).objectValue) ?? [:]
    #expect {
      _ = try ReckonConfiguration(
        ConfigurationReader(root, path: "reckon.json"), baseDirectory: "/tmp")
    } throws: { error in
      "\(error)".contains("appStore.\(key)")
        && "\(error)".contains("no space, line break or invisible character")
    }
  }

  /// App Store Connect's issuer ids are UUIDs: the key id or a team id pasted in its place would
  /// sign tokens Apple refuses with 401.
  @Test(arguments: ["ABC123DEFG", "69a6de70-03db-47e3-e053", "A1B2C3D4E5"])
  func anIssuerIdThatIsNoUUIDIsRefused(_ issuer: String) {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "appStore": {"issuerId": "\(issuer)", "keyId": "ABC123DEFG", "privateKeyPath": "key.p8"}}
      """
    let root = (try? JSONValue.parse(Data(json.utf8)).objectValue) ?? [:]
    #expect {
      _ = try ReckonConfiguration(
        ConfigurationReader(root, path: "reckon.json"), baseDirectory: "/tmp")
    } throws: { error in
      "\(error)".contains("appStore.issuerId") && "\(error)".contains("a UUID such as")
    }
  }
}
