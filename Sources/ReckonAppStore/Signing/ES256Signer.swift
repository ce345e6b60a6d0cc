import COpenSSL
import Foundation

/// Signs with ECDSA P-256 and SHA-256 (JWS `ES256`), returning the raw 64-byte r‖s form JWS uses.
public struct ES256Signer: Sendable {
  /// The key that signs.
  public let key: PrivateKey

  /// A signer with `key`.
  public init(key: PrivateKey) {
    self.key = key
  }

  /// The r‖s signature of `message` (32 + 32 bytes, each left-padded with zeros).
  public func sign(_ message: Data) throws(SigningError) -> Data {
    let der = try derSignature(message)
    return try Self.rawSignature(fromDER: der)
  }

  private func derSignature(_ message: Data) throws(SigningError) -> Data {
    guard let context = EVP_MD_CTX_new() else { throw .signatureFailed(step: "EVP_MD_CTX_new") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.key) == 1 else {
      ERR_clear_error()
      throw .signatureFailed(step: "EVP_DigestSignInit")
    }
    var length = 0
    let ok = message.withUnsafeBytes { input -> Bool in
      let bytes = input.bindMemory(to: UInt8.self).baseAddress
      guard EVP_DigestSign(context, nil, &length, bytes, input.count) == 1 else { return false }
      return true
    }
    guard ok else { throw .signatureFailed(step: "EVP_DigestSign (length)") }
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
      throw .signatureFailed(step: "EVP_DigestSign")
    }
    return signature.prefix(length)
  }

  /// Converts a DER `ECDSA-Sig-Value` to r‖s, each 32 bytes big-endian and left-padded.
  static func rawSignature(fromDER der: Data) throws(SigningError) -> Data {
    let parsed: OpaquePointer? = der.withUnsafeBytes { buffer in
      var pointer: UnsafePointer<UInt8>? = buffer.bindMemory(to: UInt8.self).baseAddress
      return d2i_ECDSA_SIG(nil, &pointer, buffer.count)
    }
    guard let parsed else { throw .signatureFailed(step: "d2i_ECDSA_SIG") }
    defer { ECDSA_SIG_free(parsed) }
    var r: OpaquePointer?
    var s: OpaquePointer?
    ECDSA_SIG_get0(parsed, &r, &s)
    guard let r, let s else { throw .signatureFailed(step: "ECDSA_SIG_get0") }
    var raw = Data(count: 64)
    let written = raw.withUnsafeMutableBytes { output -> Bool in
      let base = output.bindMemory(to: UInt8.self).baseAddress!
      return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
    }
    guard written else { throw .signatureFailed(step: "BN_bn2binpad") }
    return raw
  }
}
