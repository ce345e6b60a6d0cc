/// Why a key could not be loaded or a token signed. Messages name the file, never its contents.
public enum SigningError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key file could not be read.
  case keyFileUnreadable(path: String, reason: String)
  /// Every user of the machine may read, write or execute the key file (`mode` is its permission
  /// bits): one could copy it, another replace it.
  case keyFileReadableByOthers(path: String, mode: UInt16)
  /// The file is not a PEM private key OpenSSL can parse.
  case notAPrivateKey(path: String)
  /// The key file holds an encrypted key; App Store Connect's `.p8` keys never are.
  case keyEncrypted(path: String)
  /// The key is not an EC P-256 key, which ES256 needs.
  case notP256(path: String)
  /// OpenSSL failed at the named step of signing.
  case signatureFailed(step: String)
  /// OpenSSL could not generate a key or build a certificate (local test CA only).
  case generationFailed

  /// One sentence saying what failed and where.
  public var description: String {
    switch self {
    case .keyFileUnreadable(let path, let reason):
      "the App Store key file \(path): \(reason)"
    case .keyFileReadableByOthers(let path, let mode):
      "the App Store key file \(path) can be \(Self.access(mode & 0o007)) by any user (mode "
        + String(mode & 0o777, radix: 8) + "); run chmod 600 on it"
    case .notAPrivateKey(let path): "\(path) is not a PEM (PKCS#8 .p8) private key"
    case .keyEncrypted(let path):
      "\(path) holds an encrypted (passphrase-protected) key; App Store Connect's .p8 keys are not encrypted: use the file as downloaded, or decrypt it with openssl pkcs8 -topk8 -nocrypt -in \(path) -out KEY.p8 (which reads both kinds of encrypted key)"
    case .notP256(let path):
      "\(path) is not an EC P-256 key, which every App Store Connect key (signing ES256) is"
    case .signatureFailed(let step): "ES256 signing failed at \(step)"
    case .generationFailed: "could not generate a test key or certificate"
    }
  }

  /// What one class of users may do with a file, from its three permission bits, in participles
  /// ("read and written") or in adjectives ("readable and writable").
  static func access(_ bits: UInt16, adjectives: Bool = false) -> String {
    var words: [String] = []
    if bits & 0o4 != 0 { words.append(adjectives ? "readable" : "read") }
    if bits & 0o2 != 0 { words.append(adjectives ? "writable" : "written") }
    if words.isEmpty && bits & 0o1 != 0 { words.append(adjectives ? "executable" : "executed") }
    return words.joined(separator: " and ")
  }
}
