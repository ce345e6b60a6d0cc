/// Why a service account's key file could not be used. Messages name the file, never the key.
public enum ServiceAccountKeyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not a service-account JSON key.
  case notAServiceAccountKey(path: String, reason: String)
  /// Its `private_key` is not a usable RSA key.
  case badKey(RSAKeyError)

  /// One sentence.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "the service-account key file \(path): \(reason)"
    case .notAServiceAccountKey(let path, let reason):
      "\(path) is not a Google Cloud service-account JSON key: \(reason)"
    case .badKey(let error): error.description
    }
  }
}
