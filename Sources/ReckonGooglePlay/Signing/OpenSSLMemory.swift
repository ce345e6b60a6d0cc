import COpenSSL
import Foundation

/// Collects what OpenSSL writes into a memory BIO (PEM output of keys).
enum OpenSSLMemory {
  /// The bytes `write` put into a fresh memory BIO, or empty data if it failed.
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
