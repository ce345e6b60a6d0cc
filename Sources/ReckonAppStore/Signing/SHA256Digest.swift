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
    // By table, not `String(format:)`: this runs for every decision the webhook stores.
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(digest.count * 2)
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
