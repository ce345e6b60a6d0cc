import Foundation
import ReckonAppStore

/// The App Store Connect in-app purchase key that signs requests to Apple. The key itself stays
/// in its `.p8` file; only its path is configured.
public struct AppStoreKeyConfiguration: Hashable, Sendable {
  /// The issuer ID from App Store Connect.
  public var issuerId: String
  /// The key's ID, sent as the JWT `kid`.
  public var keyId: String
  /// Where the PKCS#8 `.p8` private key is.
  public var privateKeyPath: String
  /// Overrides Apple's base URL, for a local stand-in.
  public var baseURL: String?

  init(_ reader: ConfigurationReader, resolve: (String) -> String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys(["issuerId", "keyId", "privateKeyPath", "baseURL"])
    issuerId = try Self.identifier("issuerId", reader)
    // App Store Connect's issuer ids are UUIDs; anything else (the key id pasted here, a team
    // id) gets every token refused with 401.
    guard UUID(uuidString: issuerId) != nil else {
      throw ConfigurationError(
        reader.keyPath("issuerId"),
        "must be the issuer ID App Store Connect shows on its Keys page, a UUID such as "
          + "57246542-96fe-1a63-e053-0824d011072a")
    }
    keyId = try Self.identifier("keyId", reader)
    privateKeyPath = resolve(try reader.string("privateKeyPath"))
    baseURL = try reader.optionalString("baseURL")
    if let baseURL, !Self.isSafeBaseURL(baseURL) {
      throw ConfigurationError(
        reader.keyPath("baseURL"), "must be https, or http on loopback for a local stand-in")
    }
  }

  /// An id copied from App Store Connect: printable ASCII only, as App Store Connect shows its
  /// ids. A space, line break or invisible character (a zero-width space, a byte-order mark)
  /// copied with it would go into every token, and Apple would answer each with 401.
  private static func identifier(_ key: String, _ reader: ConfigurationReader)
    throws(ConfigurationError) -> String
  {
    let value = try reader.string(key)
    guard !value.isEmpty, value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw ConfigurationError(
        reader.keyPath(key),
        "must be the id as App Store Connect shows it, with no space, line break or invisible character"
      )
    }
    return value
  }

  /// https anywhere, or plain http only to a loopback host: the bearer token must never cross a
  /// network in clear. The host is parsed, so `http://127.0.0.1.example.com` is not loopback.
  static func isSafeBaseURL(_ text: String) -> Bool {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      let host = url.host?.lowercased(), !host.isEmpty
    else { return false }
    if scheme == "https" { return true }
    guard scheme == "http" else { return false }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    let isIPv4Loopback =
      octets.count == 4 && octets[0] == "127"
      && octets.allSatisfy { UInt8($0) != nil && $0.allSatisfy(\.isASCII) }
    return host == "localhost" || isIPv4Loopback || host == "::1" || host == "[::1]"
  }
}
