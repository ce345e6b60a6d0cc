import COpenSSL
import Foundation

/// A P-256 public key read from PEM, to check ES256 signatures made with its private half (the
/// stand-in checks the sender's bearer tokens with it, as Apple does).
public final class ES256PublicKey: @unchecked Sendable {
  private let key: OpaquePointer

  /// The key in `pem` (a `PUBLIC KEY` block), or nil when it holds none.
  public init?(pem: String) {
    let data = Data(pem.utf8)
    let key: OpaquePointer? = data.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
    }
    ERR_clear_error()
    guard let key else { return nil }
    self.key = key
  }

  deinit { EVP_PKEY_free(key) }

  /// Whether `signature` (JWS form, 64 bytes r‖s) signs `message` with this key.
  public func verifies(signature: Data, message: Data) -> Bool {
    let valid = ES256SignatureCheck.isValid(signature: signature, message: message, key: key)
    ERR_clear_error()
    return valid
  }
}
