import COpenSSL
import Foundation

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
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
      throw .keyFileUnreadable(
        path: path,
        reason: (error as NSError).localizedFailureReason ?? "no such file or no permission")
    }
    try self.init(pem: data, source: path)
  }

  /// Parses a PEM private key; `source` names it in errors.
  public init(pem: Data, source: String = "<memory>") throws(SigningError) {
    self.source = source
    let parsed: OpaquePointer? = pem.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }
    ERR_clear_error()
    guard let parsed else { throw .notAPrivateKey(path: source) }
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_EC, EVP_PKEY_get_bits(parsed) == 256 else {
      EVP_PKEY_free(parsed)
      throw .notP256(path: source)
    }
    key = parsed
  }

  deinit { EVP_PKEY_free(key) }

  /// The public half as a PEM `PUBLIC KEY`, for verifiers.
  public func publicKeyPEM() -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { return "" }
    defer { BIO_free(bio) }
    guard PEM_write_bio_PUBKEY(bio, key) == 1 else { return "" }
    var pointer: UnsafeMutablePointer<CChar>?
    let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
    guard let pointer, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
  }

  /// Never the key: its source only.
  public var description: String { "PrivateKey(\(source))" }

  /// A warning when the key file can be read by its group or by others, else nil.
  public static func permissionWarning(path: String) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value
    else { return nil }
    guard mode & 0o077 != 0 else { return nil }
    return "warning: the App Store key file \(path) is readable by "
      + (mode & 0o007 != 0 ? "others" : "its group")
      + String(format: " (mode %o); run chmod 600 on it", mode & 0o777)
  }
}
