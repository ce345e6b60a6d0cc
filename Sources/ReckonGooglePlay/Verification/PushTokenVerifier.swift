import Foundation
import ReckonSupport

/// Checks the OIDC token Google attaches to an authenticated Pub/Sub push, as Google's own
/// client libraries do: RS256 under one of Google's keys, Google's issuer, the configured
/// audience and push service account (verified by Google), and the token's lifetime.
public struct PushTokenVerifier: Sendable {
  /// What the token must say.
  public let expected: PushTokenExpectations
  /// Where the signing keys come from.
  public let keys: GoogleSigningKeys

  /// A verifier for one push subscription.
  public init(expected: PushTokenExpectations, keys: GoogleSigningKeys) {
    self.expected = expected
    self.keys = keys
  }

  /// The token's subject (the push service account's unique id) when the `Authorization`
  /// header carries a valid token at `now`.
  public func verify(authorization: String?, now: Date) async throws(PushVerificationFailure)
    -> String
  {
    // The scheme's name is case-insensitive (RFC 9110 §11.1).
    guard let authorization, authorization.prefix(7).lowercased() == "bearer " else {
      throw .noToken
    }
    let token = authorization.dropFirst("Bearer ".count)
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
      let header = Base64URL.decode(parts[0]).flatMap({ try? JSONValue.parse($0) })?.objectValue,
      let claims = Base64URL.decode(parts[1]).flatMap({ try? JSONValue.parse($0) })?.objectValue
    else { throw .malformedToken }
    guard case .string(let alg)? = header["alg"], alg == "RS256" else {
      throw .wrongAlgorithm(header["alg"]?.stringValue ?? "missing")
    }
    guard case .string(let kid)? = header["kid"] else { throw .unknownKey("(none)") }
    guard let key = await keys.key(kid, now: now) else {
      // No key at hand at all is this side's problem; keys held that lack this one are Google's
      // answer, whatever else went wrong (a cache that could not be written).
      if await keys.count == 0, let problem = await keys.lastProblem {
        throw .keysUnavailable(kid: kid, problem: problem)
      }
      throw .unknownKey(kid)
    }
    guard key.verifiesRS256(signature: signature, message: Data("\(parts[0]).\(parts[1])".utf8))
    else { throw .badSignature }
    return try check(claims, now: now)
  }

  private func check(_ claims: [String: JSONValue], now: Date) throws(PushVerificationFailure)
    -> String
  {
    let issuer = claims["iss"]?.stringValue ?? "missing"
    guard PushTokenExpectations.issuers.contains(issuer) else { throw .wrongIssuer(issuer) }
    // One audience, or a list that must hold the configured one (RFC 7519 §4.1.3).
    switch claims["aud"] {
    case .string(let audience):
      guard audience == expected.audience else { throw .wrongAudience(audience) }
    case .array(let audiences):
      let named = audiences.compactMap(\.stringValue)
      guard named.contains(expected.audience) else {
        throw .wrongAudience(named.isEmpty ? "an empty list" : named.joined(separator: ", "))
      }
    default: throw .wrongAudience("missing")
    }
    let email = claims["email"]?.stringValue ?? "missing"
    guard email == expected.serviceAccountEmail else { throw .wrongServiceAccount(email) }
    guard claims["email_verified"] == .bool(true) else {
      throw .wrongServiceAccount("\(email) (email_verified is not true)")
    }
    guard case .integer(let expires)? = claims["exp"], case .integer(let issued)? = claims["iat"]
    else { throw .outsideValidity("has no whole-second exp and iat") }
    let seconds = Int(now.timeIntervalSince1970)
    if expires + expected.allowedSkew <= seconds { throw .outsideValidity("has expired") }
    if issued - expected.allowedSkew > seconds { throw .outsideValidity("is issued in the future") }
    return claims["sub"]?.stringValue ?? email
  }
}
