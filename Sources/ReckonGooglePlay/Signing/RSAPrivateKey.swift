import COpenSSL
import Foundation

/// An RSA private key held by OpenSSL: a Google service account's key, which signs the RS256
/// assertion exchanged for an access token, or a stand-in's test key. Its description never
/// shows the key.
public final class RSAPrivateKey: @unchecked Sendable, CustomStringConvertible {
  /// The OpenSSL key; immutable after loading, and OpenSSL signs with it from any thread.
  let key: OpaquePointer
  /// Where the key came from, for messages.
  public let source: String

  /// Parses a PEM private key (`-----BEGIN PRIVATE KEY-----`, as a service-account JSON file's
  /// `private_key` holds it); `source` names it in errors.
  public init(pem: String, source: String = "<memory>") throws(RSAKeyError) {
    self.source = source
    // Without a callback OpenSSL would ask for a passphrase on the terminal.
    if pem.contains("ENCRYPTED") { throw .keyEncrypted(source: source) }
    let data = Data(pem.utf8)
    let parsed: OpaquePointer? = data.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
    }
    ERR_clear_error()
    guard let parsed else { throw .notAPrivateKey(source: source) }
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA, EVP_PKEY_get_bits(parsed) >= 2048 else {
      EVP_PKEY_free(parsed)
      throw .notRSA2048(source: source)
    }
    key = parsed
  }

  /// Generates a fresh 2048-bit key, for a local stand-in or a test; never for Google.
  public init(generatedFor purpose: String) throws(RSAKeyError) {
    guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else {
      throw .openSSLFailed(step: "EVP_PKEY_CTX_new_id")
    }
    defer { EVP_PKEY_CTX_free(context) }
    var generated: OpaquePointer? = nil
    guard EVP_PKEY_keygen_init(context) == 1,
      EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1,
      EVP_PKEY_keygen(context, &generated) == 1, let generated
    else {
      ERR_clear_error()
      throw .openSSLFailed(step: "EVP_PKEY_keygen")
    }
    key = generated
    source = purpose
  }

  deinit { EVP_PKEY_free(key) }

  /// The RSASSA-PKCS1-v1_5 SHA-256 signature (JWS `RS256`) of `message`.
  public func signRS256(_ message: Data) throws(RSAKeyError) -> Data {
    guard let context = EVP_MD_CTX_new() else { throw .openSSLFailed(step: "EVP_MD_CTX_new") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      ERR_clear_error()
      throw .openSSLFailed(step: "EVP_DigestSignInit")
    }
    var length = Int(EVP_PKEY_get_size(key))
    var signature = Data(count: length)
    let signed = signature.withUnsafeMutableBytes { output in
      message.withUnsafeBytes { input in
        EVP_DigestSign(
          context, output.bindMemory(to: UInt8.self).baseAddress, &length,
          input.bindMemory(to: UInt8.self).baseAddress, input.count)
      }
    }
    guard signed == 1 else {
      ERR_clear_error()
      throw .openSSLFailed(step: "EVP_DigestSign")
    }
    return signature.prefix(length)
  }

  /// The key as PKCS#8 PEM, for a generated service-account file.
  public func pkcs8PEM() -> String {
    String(
      decoding: OpenSSLMemory.collect {
        PEM_write_bio_PKCS8PrivateKey($0, key, nil, nil, 0, nil, nil)
      }, as: UTF8.self)
  }

  /// The public half, for a verifier or a key set.
  public func publicKey() throws(RSAKeyError) -> RSAPublicKey {
    let pem = String(
      decoding: OpenSSLMemory.collect { PEM_write_bio_PUBKEY($0, key) }, as: UTF8.self)
    guard let key = RSAPublicKey(pem: pem) else {
      throw .openSSLFailed(step: "PEM_write_bio_PUBKEY")
    }
    return key
  }

  /// Never the key: its source only.
  public var description: String { "RSAPrivateKey(\(source))" }
}
