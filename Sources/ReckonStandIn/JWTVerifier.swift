import Foundation
import ReckonAppStore
import ReckonSupport

/// Checks an App Store Server API bearer token the way Apple would, on a path independent of
/// Reckon's signer: the signature against the public key (`ES256PublicKey`, the verification
/// side of ReckonAppStore), then the header and claims.
public final class JWTVerifier: @unchecked Sendable {
  /// What the token must say.
  public struct Expected: Sendable {
    /// The issuer ID (`iss`).
    public var issuerId: String
    /// The key ID (`kid`).
    public var keyId: String
    /// Bundle IDs accepted in `bid`.
    public var bundleIds: Set<String>

    /// Expectations for one key.
    public init(issuerId: String, keyId: String, bundleIds: Set<String>) {
      self.issuerId = issuerId
      self.keyId = keyId
      self.bundleIds = bundleIds
    }
  }

  private let publicKey: ES256PublicKey
  private let lock = NSLock()
  /// Tokens whose signature already verified (the sender reuses a token for minutes); claims and
  /// times are still checked on every request.
  private var verified: Set<String> = []
  /// What tokens must say.
  public let expected: Expected

  /// A verifier for tokens signed by the key whose public half is `publicKeyPEM`.
  public init?(publicKeyPEM: String, expected: Expected) {
    guard let key = ES256PublicKey(pem: publicKeyPEM) else { return nil }
    self.publicKey = key
    self.expected = expected
  }

  /// Nil when the token is valid at `now`, else why not.
  public func problem(with token: String, now: Date) -> String? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = Base64URL.decode(parts[2]), signature.count == 64,
      let header = Base64URL.decode(parts[0]).flatMap({ try? JSONValue.parse($0) })?.objectValue,
      let claims = Base64URL.decode(parts[1]).flatMap({ try? JSONValue.parse($0) })?.objectValue
    else { return "the token is not a compact JWS with a 64-byte signature" }
    if !lock.withLock({ verified.contains(token) }) {
      guard
        publicKey.verifies(signature: signature, message: Data("\(parts[0]).\(parts[1])".utf8))
      else {
        return "the signature does not verify with the public key"
      }
      lock.withLock { _ = verified.insert(token) }
    }
    if header["alg"] != .string("ES256") { return "alg is not ES256" }
    if header["typ"] != .string("JWT") { return "typ is not JWT" }
    if header["kid"] != .string(expected.keyId) { return "kid is not \(expected.keyId)" }
    return claimsProblem(claims, now: now)
  }

  private func claimsProblem(_ claims: [String: JSONValue], now: Date) -> String? {
    if claims["aud"] != .string("appstoreconnect-v1") { return "aud is not appstoreconnect-v1" }
    if claims["iss"] != .string(expected.issuerId) { return "iss is not \(expected.issuerId)" }
    guard case .string(let bid)? = claims["bid"], expected.bundleIds.contains(bid) else {
      return "bid is not a known bundle"
    }
    guard case .integer(let iat)? = claims["iat"], case .integer(let exp)? = claims["exp"] else {
      return "iat and exp must be whole seconds"
    }
    let seconds = Int(now.timeIntervalSince1970)
    if iat > seconds + 60 { return "iat is in the future" }
    if exp <= seconds { return "the token has expired" }
    if exp - iat > 3_600 { return "exp is more than 60 minutes after iat" }
    return nil
  }
}
