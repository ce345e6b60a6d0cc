import COpenSSL
import Foundation

/// Checks an ES256 (ECDSA P-256 with SHA-256) signature in JWS form, raw r‖s, with OpenSSL.
enum ES256SignatureCheck {
  /// Whether `signature` (64 bytes, r‖s) signs `message` under the certificate's public key.
  static func isValid(signature: Data, message: Data, certificate: X509Certificate) -> Bool {
    guard let key = X509_get0_pubkey(certificate.pointer) else { return false }
    return isValid(signature: signature, message: message, key: key)
  }

  /// Whether `signature` (64 bytes, r‖s) signs `message` under the P-256 public key `key`.
  static func isValid(signature: Data, message: Data, key: OpaquePointer) -> Bool {
    guard signature.count == 64, EVP_PKEY_get_bits(key) == 256,
      let der = derSignature(fromRaw: signature)
    else { return false }
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
    let result = der.withUnsafeBytes { derBytes in
      message.withUnsafeBytes { messageBytes in
        EVP_DigestVerify(
          context, derBytes.bindMemory(to: UInt8.self).baseAddress, derBytes.count,
          messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count)
      }
    }
    return result == 1
  }

  /// The DER ECDSA-Sig-Value for a raw r‖s signature.
  static func derSignature(fromRaw raw: Data) -> Data? {
    guard let signature = ECDSA_SIG_new() else { return nil }
    defer { ECDSA_SIG_free(signature) }
    let (r, s) = raw.withUnsafeBytes { bytes -> (OpaquePointer?, OpaquePointer?) in
      let base = bytes.bindMemory(to: UInt8.self).baseAddress!
      return (BN_bin2bn(base, 32, nil), BN_bin2bn(base + 32, 32, nil))
    }
    guard let r, let s else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    guard ECDSA_SIG_set0(signature, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    let length = i2d_ECDSA_SIG(signature, nil)
    guard length > 0 else { return nil }
    var der = Data(count: Int(length))
    let written = der.withUnsafeMutableBytes { bytes -> Int32 in
      var cursor: UnsafeMutablePointer<UInt8>? = bytes.bindMemory(to: UInt8.self).baseAddress
      return i2d_ECDSA_SIG(signature, &cursor)
    }
    return written == length ? der : nil
  }
}
