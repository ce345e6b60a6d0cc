import COpenSSL
import Foundation

/// An RSA public key that checks RS256 signatures: one of Google's OpenID signing keys (read from
/// a JSON Web Key's modulus and exponent) or a PEM public key.
public final class RSAPublicKey: @unchecked Sendable {
  private let key: OpaquePointer

  /// The key in `pem` (a `PUBLIC KEY` block), or nil when it holds no RSA key.
  public init?(pem: String) {
    let data = Data(pem.utf8)
    let parsed: OpaquePointer? = data.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
    }
    ERR_clear_error()
    guard let parsed else { return nil }
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA else {
      EVP_PKEY_free(parsed)
      return nil
    }
    key = parsed
  }

  /// The key with big-endian `modulus` and `exponent`, as a JSON Web Key's `n` and `e` give them.
  public init(modulus: Data, exponent: Data) throws(RSAKeyError) {
    guard let builder = OSSL_PARAM_BLD_new() else {
      throw .openSSLFailed(step: "OSSL_PARAM_BLD_new")
    }
    defer { OSSL_PARAM_BLD_free(builder) }
    let n = modulus.withUnsafeBytes {
      BN_bin2bn($0.bindMemory(to: UInt8.self).baseAddress, Int32($0.count), nil)
    }
    let e = exponent.withUnsafeBytes {
      BN_bin2bn($0.bindMemory(to: UInt8.self).baseAddress, Int32($0.count), nil)
    }
    defer {
      BN_free(n)
      BN_free(e)
    }
    guard let n, let e else { throw .openSSLFailed(step: "BN_bin2bn") }
    guard OSSL_PARAM_BLD_push_BN(builder, Self.modulusName, n) == 1,
      OSSL_PARAM_BLD_push_BN(builder, Self.exponentName, e) == 1
    else { throw .openSSLFailed(step: "OSSL_PARAM_BLD_push_BN") }
    let built = OSSL_PARAM_BLD_to_param(builder)
    guard let parameters = built else { throw .openSSLFailed(step: "OSSL_PARAM_BLD") }
    defer { OSSL_PARAM_free(parameters) }
    guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
      throw .openSSLFailed(step: "EVP_PKEY_CTX_new_from_name")
    }
    defer { EVP_PKEY_CTX_free(context) }
    var made: OpaquePointer? = nil
    guard EVP_PKEY_fromdata_init(context) == 1,
      EVP_PKEY_fromdata(context, &made, Self.publicKeySelection, parameters) == 1, let made
    else {
      ERR_clear_error()
      throw .openSSLFailed(step: "EVP_PKEY_fromdata")
    }
    key = made
  }

  // OpenSSL keeps a parameter's name pointer, not a copy, in the parameters it builds; a Swift
  // string bridged for one call would be gone by then. These live as long as the process, and
  // are never written.
  nonisolated(unsafe) private static let modulusName = strdup(OSSL_PKEY_PARAM_RSA_N)!
  nonisolated(unsafe) private static let exponentName = strdup(OSSL_PKEY_PARAM_RSA_E)!

  /// `EVP_PKEY_PUBLIC_KEY`, which Swift does not import.
  private static let publicKeySelection = Int32(
    OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY)

  deinit { EVP_PKEY_free(key) }

  /// The size of the modulus in bits.
  public var bits: Int { Int(EVP_PKEY_get_bits(key)) }

  /// Whether `signature` is an RSASSA-PKCS1-v1_5 SHA-256 signature (JWS `RS256`) of `message`.
  public func verifiesRS256(signature: Data, message: Data) -> Bool {
    guard let context = EVP_MD_CTX_new() else { return false }
    defer {
      EVP_MD_CTX_free(context)
      ERR_clear_error()
    }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
    let result = signature.withUnsafeBytes { signatureBytes in
      message.withUnsafeBytes { messageBytes in
        EVP_DigestVerify(
          context, signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
          messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count)
      }
    }
    return result == 1
  }

  /// The modulus and exponent, big-endian, for writing the key as a JSON Web Key.
  public func components() -> (modulus: Data, exponent: Data)? {
    var n: OpaquePointer? = nil
    var e: OpaquePointer? = nil
    guard EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) == 1,
      EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) == 1, let n, let e
    else {
      BN_free(n)
      BN_free(e)
      ERR_clear_error()
      return nil
    }
    defer {
      BN_free(n)
      BN_free(e)
    }
    return (Self.bytes(of: n), Self.bytes(of: e))
  }

  private static func bytes(of number: OpaquePointer) -> Data {
    var data = Data(count: Int((BN_num_bits(number) + 7) / 8))
    data.withUnsafeMutableBytes { _ = BN_bn2bin(number, $0.bindMemory(to: UInt8.self).baseAddress) }
    return data
  }
}
