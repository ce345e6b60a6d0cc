import Foundation
import ReckonSupport

/// OAuth access tokens for the Google Play Developer API, from a service account: an RS256
/// assertion signed with its key, exchanged at its token endpoint (RFC 7523), each token kept
/// until a minute before it expires.
public actor AccessTokenSource {
  /// The scope the Developer API needs.
  public static let scope = "https://www.googleapis.com/auth/androidpublisher"

  private let account: ServiceAccountKey
  private let http: any HTTPTransport
  private var held: (token: String, expires: Date)?

  /// Tokens for `account`, fetched through `transport`.
  public init(account: ServiceAccountKey, transport: any HTTPTransport) {
    self.account = account
    self.http = transport
  }

  /// A token valid for at least another minute at `now`.
  public func token(now: Date) async throws(AccessTokenError) -> String {
    if let held, held.expires.timeIntervalSince(now) > 60 { return held.token }
    let assertion = try self.assertion(now: now)
    let form =
      "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
    let response: HTTPClientResponse
    do {
      response = try await http.perform(
        HTTPClientRequest(
          method: "POST", url: account.tokenURL,
          headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8),
          deadline: now.addingTimeInterval(30)))
    } catch {
      throw .unreachable(error.description)
    }
    let members = (try? JSONValue.parse(response.body))?.objectValue ?? [:]
    guard response.status == 200 else {
      let why = members["error_description"]?.stringValue ?? members["error"]?.stringValue
      throw .refused(status: response.status, why ?? "no reason given")
    }
    guard case .string(let token)? = members["access_token"], !token.isEmpty else {
      throw .refused(status: response.status, "the answer has no access_token")
    }
    var lifetime = 3_600
    if case .integer(let seconds)? = members["expires_in"] { lifetime = seconds }
    held = (token, now.addingTimeInterval(TimeInterval(lifetime)))
    return token
  }

  /// The signed assertion the token endpoint takes (`iss`, `scope`, `aud`, `iat`, `exp`).
  func assertion(now: Date) throws(AccessTokenError) -> String {
    var header: [String: JSONValue] = ["alg": .string("RS256"), "typ": .string("JWT")]
    if let kid = account.privateKeyId { header["kid"] = .string(kid) }
    let issued = Int(now.timeIntervalSince1970)
    let claims: [String: JSONValue] = [
      "iss": .string(account.clientEmail), "scope": .string(Self.scope),
      "aud": .string(account.tokenURL.absoluteString), "iat": .integer(issued),
      "exp": .integer(issued + 3_600),
    ]
    let signingInput =
      Base64URL.encode(GooglePlayJSON.encode(JSONValue.object(header))) + "."
      + Base64URL.encode(GooglePlayJSON.encode(JSONValue.object(claims)))
    do throws(RSAKeyError) {
      let signature = try account.privateKey.signRS256(Data(signingInput.utf8))
      return signingInput + "." + Base64URL.encode(signature)
    } catch {
      throw .notSigned(error.description)
    }
  }

  /// Forgets the held token, after the API refused it.
  public func discard() { held = nil }
}
