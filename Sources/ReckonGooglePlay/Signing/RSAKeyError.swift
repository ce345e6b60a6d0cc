/// Why an RSA key could not be loaded, generated or used. Messages name the key's source, never
/// its contents.
public enum RSAKeyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text is not a PEM RSA private key OpenSSL can parse.
  case notAPrivateKey(source: String)
  /// The key is encrypted; Google's service-account keys never are.
  case keyEncrypted(source: String)
  /// The key is not RSA, or shorter than 2048 bits, which RS256 tokens from Google need.
  case notRSA2048(source: String)
  /// A JSON Web Key's modulus or exponent is not base64url, or the key is not RSA.
  case badJSONWebKey(keyId: String, reason: String)
  /// OpenSSL failed at the named step.
  case openSSLFailed(step: String)

  /// One sentence saying what failed and where.
  public var description: String {
    switch self {
    case .notAPrivateKey(let source): "\(source) is not a PEM (PKCS#8) RSA private key"
    case .keyEncrypted(let source):
      "\(source) holds an encrypted key; a service-account key from Google Cloud is not encrypted: use the JSON key file as downloaded"
    case .notRSA2048(let source): "\(source) is not an RSA key of at least 2048 bits"
    case .badJSONWebKey(let keyId, let reason): "the JSON Web Key \(keyId): \(reason)"
    case .openSSLFailed(let step): "RSA failed at \(step)"
    }
  }
}
