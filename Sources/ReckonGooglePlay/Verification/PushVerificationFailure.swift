/// Why a Pub/Sub push was not accepted as Google's. A push that fails any check is refused and
/// never decided on.
public enum PushVerificationFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// No `Authorization: Bearer` header: the subscription does not authenticate its pushes.
  case noToken
  /// The token is not a compact JWS with a header, claims and a signature.
  case malformedToken
  /// The header's `alg` is not RS256 (`none` and HMAC are never accepted).
  case wrongAlgorithm(String)
  /// No known key has the token's `kid`, even after refreshing the keys.
  case unknownKey(String)
  /// No key is at hand because Google's keys could not be loaded or fetched (this side's
  /// problem, not the push's): `problem` says why.
  case keysUnavailable(kid: String, problem: String)
  /// The signature does not verify with the key the token names.
  case badSignature
  /// `iss` is not Google's accounts issuer.
  case wrongIssuer(String)
  /// `aud` is not the audience configured for the push subscription.
  case wrongAudience(String)
  /// `email` is not the push service account configured, or Google did not verify it.
  case wrongServiceAccount(String)
  /// The token expired (`exp`), or is dated in the future (`iat`), beyond the allowed skew.
  case outsideValidity(String)

  /// One sentence for the log and the refusal.
  public var description: String {
    switch self {
    case .noToken:
      "the push has no Authorization: Bearer token (enable authentication on the Pub/Sub push subscription)"
    case .malformedToken: "the push token is not a compact JWS"
    case .wrongAlgorithm(let alg): "the push token's alg is \(alg), not RS256"
    case .unknownKey(let kid):
      "the push token is signed by key \(kid), which is not one of Google's keys"
    case .keysUnavailable(let kid, let problem):
      "the push token is signed by key \(kid), and Google's keys are not at hand to check it: "
        + problem
    case .badSignature: "the push token's signature does not verify"
    case .wrongIssuer(let issuer): "the push token's issuer is \(issuer), not accounts.google.com"
    case .wrongAudience(let audience):
      "the push token's audience is \(audience), not the one configured"
    case .wrongServiceAccount(let email):
      "the push token is for \(email), not the configured push service account"
    case .outsideValidity(let why): "the push token \(why)"
    }
  }
}
