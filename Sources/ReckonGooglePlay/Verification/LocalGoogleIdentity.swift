import Foundation
import ReckonSupport

/// A local stand-in for Google's OpenID signer: a fresh RSA key that signs push tokens the way
/// Google signs them for authenticated Pub/Sub pushes, and publishes itself as a key set. For
/// tests, the stand-in and the demo; never trusted unless configured.
public struct LocalGoogleIdentity: Sendable {
  /// The signing key.
  public let key: RSAPrivateKey
  /// Its key id, written as each token's `kid`.
  public let keyId: String

  /// A new identity with a generated key.
  public init(keyId: String = "reckon-local-oidc") throws(RSAKeyError) {
    self.key = try RSAPrivateKey(generatedFor: "a local OpenID signer")
    self.keyId = keyId
  }

  /// The files an identity is kept in.
  public enum FileName {
    /// The private key, PKCS#8 PEM, readable by its owner only.
    public static let key = "identity-key.pem"
    /// The public key set, for `googlePlay.push.keysFile`.
    public static let keys = "keys.json"
  }

  /// The identity written to `directory` by `write(to:)`.
  public init(directory: String) throws(LocalIdentityError) {
    let folder = URL(fileURLWithPath: directory)
    let keyPath = folder.appendingPathComponent(FileName.key).path
    let keysPath = folder.appendingPathComponent(FileName.keys).path
    do {
      let pem = String(decoding: try LocalFile.data(at: keyPath, limit: .secret), as: UTF8.self)
      key = try RSAPrivateKey(pem: pem, source: keyPath)
      let set = try JSONWebKeySet(json: try LocalFile.data(at: keysPath))
      guard let kid = set.keys.keys.sorted().first else {
        throw LocalIdentityError(path: keysPath, reason: "holds no key")
      }
      keyId = kid
    } catch let error as LocalIdentityError {
      throw error
    } catch {
      throw LocalIdentityError(path: directory, reason: "\(error)")
    }
  }

  /// Writes the key (mode 0600) and the public key set into `directory`, creating it.
  public func write(to directory: String) throws(LocalIdentityError) {
    let folder = URL(fileURLWithPath: directory)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let keyPath = folder.appendingPathComponent(FileName.key).path
      try? FileManager.default.removeItem(atPath: keyPath)
      try LocalFile.createPrivate(at: keyPath, with: Data(key.pkcs8PEM().utf8))
      try keySet().json().write(to: folder.appendingPathComponent(FileName.keys))
    } catch {
      throw LocalIdentityError(path: directory, reason: "\(error)")
    }
  }

  /// The identity's public key as Google's JWKS endpoint would list it.
  public func keySet() throws(RSAKeyError) -> JSONWebKeySet {
    JSONWebKeySet(keys: [keyId: try key.publicKey()])
  }

  /// A push token for `audience` from `email`, issued at `issuedAt` for an hour; `claims`
  /// replace or add claims (for tests of each check).
  public func token(
    audience: String, email: String, issuedAt: Date = Date(),
    claims overrides: [String: JSONValue] = [:], header headerOverrides: [String: JSONValue] = [:]
  ) throws(RSAKeyError) -> String {
    let issued = Int(issuedAt.timeIntervalSince1970)
    var claims: [String: JSONValue] = [
      "iss": .string("https://accounts.google.com"), "aud": .string(audience),
      "azp": .string("1234567890"), "email": .string(email), "email_verified": .bool(true),
      "sub": .string("1234567890"), "iat": .integer(issued), "exp": .integer(issued + 3_600),
    ]
    claims.merge(overrides) { $1 }
    var header: [String: JSONValue] = [
      "alg": .string("RS256"), "kid": .string(keyId), "typ": .string("JWT"),
    ]
    header.merge(headerOverrides) { $1 }
    let signingInput =
      Base64URL.encode(GooglePlayJSON.encode(JSONValue.object(header))) + "."
      + Base64URL.encode(GooglePlayJSON.encode(JSONValue.object(claims)))
    let signature = try key.signRS256(Data(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// A Pub/Sub push of `notification` with its `Authorization` header value.
  public func push(
    _ notification: DeveloperNotification, audience: String, email: String,
    messageId: String = UUID().uuidString,
    subscription: String = "projects/reckon-local/subscriptions/play-rtdn", now: Date = Date()
  ) throws(RSAKeyError) -> (body: Data, authorization: String) {
    let push = PubSubPush(
      messageId: messageId, publishTime: RFC3339Time.text(now), data: notification.data(),
      subscription: subscription)
    return (push.body(), "Bearer " + (try token(audience: audience, email: email, issuedAt: now)))
  }
}
