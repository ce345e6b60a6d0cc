import COpenSSL
import Foundation

/// A P-256 private key held by OpenSSL, for signing JWS and certificates (the local test CA, the
/// App Store stand-in, `reckon simulate`). Never printed or logged.
public final class SigningKey: @unchecked Sendable {
  // Never mutated after init; OpenSSL keys are safe for concurrent signing.
  let pointer: OpaquePointer

  /// Generates a fresh P-256 key.
  public init() throws(SigningKeyError) {
    guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw .generationFailed }
    defer { EVP_PKEY_CTX_free(context) }
    var key: OpaquePointer? = nil
    guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
      EVP_PKEY_keygen(context, &key) == 1, let key
    else { throw .generationFailed }
    pointer = key
  }

  /// Reads a PEM private key (PKCS#8 `.p8` or traditional EC).
  public init(pem: Data) throws(SigningKeyError) {
    let key = pem.withUnsafeBytes { bytes -> OpaquePointer? in
      guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }
    guard let key else { throw .unreadable }
    guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
      EVP_PKEY_free(key)
      throw .notP256
    }
    pointer = key
  }

  deinit {
    EVP_PKEY_free(pointer)
  }

  /// The key as PKCS#8 PEM, for writing a new key to a file only its owner can read.
  public func pkcs8PEM() -> Data {
    MemoryBIO.collect { bio in PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil) }
  }

  /// An ES256 JWS signature of `message`: raw r‖s, 64 bytes.
  public func signES256(_ message: Data) throws(SigningKeyError) -> Data {
    guard let context = EVP_MD_CTX_new() else { throw .signingFailed }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { throw .signingFailed }
    var length = 0
    let bytes = [UInt8](message)
    guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else { throw .signingFailed }
    var der = [UInt8](repeating: 0, count: length)
    guard EVP_DigestSign(context, &der, &length, bytes, bytes.count) == 1 else { throw .signingFailed }
    return try Self.raw(fromDER: Array(der.prefix(length)))
  }

  /// Converts a DER ECDSA-Sig-Value to JWS's fixed-width r‖s.
  static func raw(fromDER der: [UInt8]) throws(SigningKeyError) -> Data {
    var cursor: UnsafePointer<UInt8>? = nil
    let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      cursor = buffer.baseAddress
      return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
    }
    guard let signature else { throw .signingFailed }
    defer { ECDSA_SIG_free(signature) }
    var output = [UInt8](repeating: 0, count: 64)
    guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
      BN_bn2binpad(r, &output, 32) == 32,
      output.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32
    else { throw .signingFailed }
    return Data(output)
  }
}

/// Why a key could not be made, read or used. Never includes key material.
public enum SigningKeyError: Error, Hashable, Sendable, CustomStringConvertible {
  case generationFailed
  case unreadable
  case notP256
  case signingFailed

  /// A sentence without key material.
  public var description: String {
    switch self {
    case .generationFailed: "could not generate a P-256 key"
    case .unreadable: "the key is not a PEM private key"
    case .notP256: "the key is not an EC P-256 key, as ES256 requires"
    case .signingFailed: "signing failed"
    }
  }
}

/// Collects what OpenSSL writes into a memory BIO.
enum MemoryBIO {
  static func collect(_ write: (OpaquePointer) -> Int32) -> Data {
    guard let bio = BIO_new(BIO_s_mem()) else { return Data() }
    defer { BIO_free(bio) }
    guard write(bio) == 1 else { return Data() }
    var pointer: UnsafeMutablePointer<CChar>? = nil
    let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
    guard length > 0, let pointer else { return Data() }
    return Data(bytes: pointer, count: length)
  }
}
