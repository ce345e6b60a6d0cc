import Foundation
import ReckonSupport

/// A Google Cloud service account's JSON key file: the account's email, its RSA key and the
/// endpoint that exchanges a signed assertion for an access token.
public struct ServiceAccountKey: Sendable {
  /// The account (`reckon@project.iam.gserviceaccount.com`): the assertion's issuer.
  public let clientEmail: String
  /// The key's id, written as the assertion's `kid`.
  public let privateKeyId: String?
  /// The key that signs assertions.
  public let privateKey: RSAPrivateKey
  /// Where assertions are exchanged (`https://oauth2.googleapis.com/token`).
  public let tokenURL: URL

  /// Google's token endpoint, when a key file does not name one.
  public static let googleTokenURL = URL(string: "https://oauth2.googleapis.com/token")!

  /// A key made of its parts.
  public init(
    clientEmail: String, privateKeyId: String?, privateKey: RSAPrivateKey,
    tokenURL: URL = ServiceAccountKey.googleTokenURL
  ) {
    self.clientEmail = clientEmail
    self.privateKeyId = privateKeyId
    self.privateKey = privateKey
    self.tokenURL = tokenURL
  }

  /// Reads the key file at `path` as Google Cloud Console downloads it.
  public init(path: String) throws(ServiceAccountKeyError) {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.data(at: path, limit: .secret) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    try self.init(json: data, source: path)
  }

  /// Reads a key file's JSON; `source` names it in errors.
  public init(json: Data, source: String = "<memory>") throws(ServiceAccountKeyError) {
    guard let members = (try? JSONValue.parse(json))?.objectValue else {
      throw .notAServiceAccountKey(path: source, reason: "not a JSON object")
    }
    guard members["type"] == .string("service_account") else {
      throw .notAServiceAccountKey(path: source, reason: "\"type\" is not \"service_account\"")
    }
    guard case .string(let email)? = members["client_email"], email.contains("@") else {
      throw .notAServiceAccountKey(path: source, reason: "no \"client_email\"")
    }
    guard case .string(let pem)? = members["private_key"] else {
      throw .notAServiceAccountKey(path: source, reason: "no \"private_key\"")
    }
    let key: RSAPrivateKey
    do throws(RSAKeyError) { key = try RSAPrivateKey(pem: pem, source: source) } catch {
      throw .badKey(error)
    }
    var tokenURL = Self.googleTokenURL
    if case .string(let text)? = members["token_uri"] {
      guard let url = URL(string: text), ["https", "http"].contains(url.scheme ?? "") else {
        throw .notAServiceAccountKey(path: source, reason: "\"token_uri\" is not a URL")
      }
      tokenURL = url
    }
    self.init(
      clientEmail: email, privateKeyId: members["private_key_id"]?.stringValue, privateKey: key,
      tokenURL: tokenURL)
  }

  /// The key file's JSON, for a stand-in's generated account.
  public func json() -> Data {
    var members: [String: JSONValue] = [
      "type": .string("service_account"), "client_email": .string(clientEmail),
      "private_key": .string(privateKey.pkcs8PEM()), "token_uri": .string(tokenURL.absoluteString),
    ]
    if let privateKeyId { members["private_key_id"] = .string(privateKeyId) }
    return GooglePlayJSON.encode(JSONValue.object(members))
  }
}
