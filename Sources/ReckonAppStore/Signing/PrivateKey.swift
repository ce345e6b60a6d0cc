import COpenSSL
import Foundation
import ReckonSupport

/// An App Store Connect `.p8` key (PKCS#8, EC P-256) held by OpenSSL. Its description never
/// shows the key, so it cannot leak into logs, errors or the state database.
public final class PrivateKey: @unchecked Sendable, CustomStringConvertible {
  /// The OpenSSL key; immutable after loading, and OpenSSL allows concurrent signing with it.
  let key: OpaquePointer
  /// Where the key was loaded from, or `<memory>`.
  public let source: String

  /// Loads the key at `path`.
  public convenience init(path: String) throws(SigningError) {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.data(at: path, limit: .secret) } catch {
      throw .keyFileUnreadable(path: path, reason: error.reason)
    }
    try self.init(pem: data, source: path)
  }

  /// Parses a PEM private key; `source` names it in errors.
  public init(pem: Data, source: String = "<memory>") throws(SigningError) {
    self.source = source
    // App Store Connect keys are never encrypted; without a callback OpenSSL would ask for a
    // passphrase on the terminal, and `serve` would wait at the prompt.
    if PrivateKey.isEncrypted(pem) { throw .keyEncrypted(path: source) }
    let parsed: OpaquePointer? = pem.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
    }
    ERR_clear_error()
    guard let parsed else { throw .notAPrivateKey(path: source) }
    // The curve, not only the size: secp256k1 and brainpoolP256r1 keys are 256 bits too, sign
    // here, and Apple answers their tokens with 401.
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_EC,
      PrivateKey.curve(of: parsed) == NID_X9_62_prime256v1
    else {
      EVP_PKEY_free(parsed)
      throw .notP256(path: source)
    }
    key = parsed
  }

  /// The NID of an EC key's named curve, or `NID_undef`.
  private static func curve(of key: OpaquePointer) -> Int32 {
    var name = [CChar](repeating: 0, count: 64)
    var length = 0
    guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return NID_undef }
    let nid = OBJ_sn2nid(name)
    return nid != NID_undef ? nid : OBJ_txt2nid(name)
  }

  /// Whether `pem` holds an encrypted key (PKCS#8 `ENCRYPTED PRIVATE KEY` or a legacy
  /// `Proc-Type: 4,ENCRYPTED` header).
  private static func isEncrypted(_ pem: Data) -> Bool {
    pem.range(of: Data("-----BEGIN ENCRYPTED PRIVATE KEY-----".utf8)) != nil
      || pem.range(of: Data("Proc-Type: 4,ENCRYPTED".utf8)) != nil
  }

  deinit { EVP_PKEY_free(key) }

  /// The public half as a PEM `PUBLIC KEY`, for verifiers.
  public func publicKeyPEM() -> String {
    String(decoding: MemoryBIO.collect { PEM_write_bio_PUBKEY($0, key) }, as: UTF8.self)
  }

  /// Generates a fresh P-256 key, for a local test CA or stand-in; never for App Store Connect.
  public init(generatedFor purpose: String) throws(SigningError) {
    guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw .generationFailed }
    defer { EVP_PKEY_CTX_free(context) }
    var generated: OpaquePointer? = nil
    guard EVP_PKEY_keygen_init(context) == 1,
      EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
      EVP_PKEY_keygen(context, &generated) == 1, let generated
    else {
      ERR_clear_error()
      throw .generationFailed
    }
    key = generated
    source = purpose
  }

  /// The key as PKCS#8 PEM, for writing a generated key to a file only its owner can read.
  public func pkcs8PEM() -> Data {
    MemoryBIO.collect { PEM_write_bio_PKCS8PrivateKey($0, key, nil, nil, 0, nil, nil) }
  }

  /// Never the key: its source only.
  public var description: String { "PrivateKey(\(source))" }

  /// A warning when the key file's group or others may do anything with it, else nil.
  public static func permissionWarning(path: String) -> String? {
    guard let mode = LocalFile.permissions(at: path) else { return nil }
    guard mode & 0o077 != 0 else { return nil }
    let others = mode & 0o007 != 0
    let bits = others ? mode & 0o007 : (mode & 0o070) >> 3
    return
      "warning: the App Store key file \(path) is \(SigningError.access(bits, adjectives: true)) by "
      + (others ? "others" : "its group")
      + String(format: " (mode %o); run chmod 600 on it", mode & 0o777)
  }

  /// Throws when every user may read, write or execute the key file: anyone on the machine could
  /// copy it and answer Apple as the app, or replace it. A missing file is left to `init(path:)`
  /// to report.
  public static func refuseIfReadableByOthers(path: String) throws(SigningError) {
    guard let mode = LocalFile.permissions(at: path), mode & 0o007 != 0 else { return }
    throw .keyFileReadableByOthers(path: path, mode: mode)
  }
}
