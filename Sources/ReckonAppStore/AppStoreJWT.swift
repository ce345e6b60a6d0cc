import Foundation

/// The ES256 JWT that authorizes App Store Server API calls: header `alg` ES256, `kid`, `typ` JWT;
/// claims `iss`, `iat`, `exp` (5 minutes after `iat`), `aud` appstoreconnect-v1, `bid`.
public struct AppStoreJWT: Sendable {
  /// The audience Apple requires.
  public static let audience = "appstoreconnect-v1"
  /// How long a token is valid; Apple refuses more than 60 minutes.
  public static let lifetime: TimeInterval = 300

  /// The issuer ID from App Store Connect.
  public let issuerId: String
  /// The key's ID.
  public let keyId: String
  /// The app's bundle ID.
  public let bundleId: String
  private let signer: ES256Signer

  /// A token maker for one app and one key.
  public init(issuerId: String, keyId: String, bundleId: String, key: PrivateKey) {
    self.issuerId = issuerId
    self.keyId = keyId
    self.bundleId = bundleId
    self.signer = ES256Signer(key: key)
  }

  /// A signed compact token issued at `now`.
  public func token(now: Date) throws(SigningError) -> String {
    let issued = Int(now.timeIntervalSince1970)
    let header = #"{"alg":"ES256","kid":\#(Self.quoted(keyId)),"typ":"JWT"}"#
    let claims =
      #"{"aud":"\#(Self.audience)","bid":\#(Self.quoted(bundleId)),"exp":\#(issued + Int(Self.lifetime)),"#
      + #""iat":\#(issued),"iss":\#(Self.quoted(issuerId))}"#
    let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
    let signature = try signer.sign(Data(input.utf8))
    return input + "." + Base64URL.encode(signature)
  }

  /// The header and claims of a compact token, read without checking the signature (for display).
  public static func decodeUnverified(_ token: String) -> (header: JSONValue, claims: JSONValue)? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let header = Base64URL.decode(parts[0]),
      let claims = Base64URL.decode(parts[1]),
      let headerJSON = try? JSONValue.parse(header), let claimsJSON = try? JSONValue.parse(claims)
    else { return nil }
    return (headerJSON, claimsJSON)
  }

  private static func quoted(_ text: String) -> String {
    let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
