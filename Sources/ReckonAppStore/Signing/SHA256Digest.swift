import COpenSSL
import Foundation

/// SHA-256 through OpenSSL, for content hashes (e.g. of a policy's text).
public enum SHA256Digest {
  /// The digest of `data` as 64 lowercase hex digits.
  public static func hex(_ data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    data.withUnsafeBytes { input in
      _ = EVP_Digest(input.baseAddress, input.count, &digest, nil, EVP_sha256(), nil)
    }
    return digest.map { String(format: "%02x", $0) }.joined()
  }
}
