import Foundation
import ReckonSupport

/// The ES256 JWT that authorizes App Store Server API calls: header `alg` ES256, `kid`, `typ` JWT;
/// claims `iss`, `iat` (a minute before the local clock), `exp` (5 minutes after the local clock,
/// so 6 after `iat`), `aud` appstoreconnect-v1, `bid`.
public struct AppStoreJWT: Sendable {
  /// The audience Apple requires.
  public static let audience = "appstoreconnect-v1"
  /// How long a token is valid from when it is made; `exp` is this long after the local clock.
  public static let lifetime: TimeInterval = 300
  /// How far `iat` is set before the local clock, so a clock a little ahead of Apple's does not
  /// make the token look issued in the future (Apple answers 401). `exp - iat` is
  /// `lifetime + backdate`, well under Apple's 60 minutes.
  public static let backdate: TimeInterval = 60

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

  /// A signed compact token made at `now`: issued `backdate` before it, expiring `lifetime` after.
  public func token(now: Date) throws(SigningError) -> String {
    let seconds = Int(now.timeIntervalSince1970)
    let issued = seconds - Int(Self.backdate)
    let expires = seconds + Int(Self.lifetime)
    let header = #"{"alg":"ES256","kid":\#(Self.quoted(keyId)),"typ":"JWT"}"#
    let claims =
      #"{"aud":"\#(Self.audience)","bid":\#(Self.quoted(bundleId)),"exp":\#(expires),"#
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
