import Foundation

/// Parsed certificates by their base64 DER as it appears in `x5c`. Apple signs every notification
/// with the same few certificates, and parsing one with OpenSSL 3 (which decodes its public key
/// through the provider machinery) cost more than the signature check itself. A cached entry is
/// only the parse of those exact bytes; every verification still checks chain and signature.
final class CertificateCache: @unchecked Sendable {
  private let lock = NSLock()
  private let capacity: Int
  // Guarded by `lock`.
  private var parsed: [String: X509Certificate] = [:]

  init(capacity: Int = 64) {
    self.capacity = capacity
  }

  /// The certificate `base64` encodes, parsed once; nil when it is not base64 DER.
  func certificate(base64: String) -> X509Certificate? {
    if let known = lock.withLock({ parsed[base64] }) { return known }
    guard let der = Data(base64Encoded: base64), let certificate = X509Certificate(der: der) else {
      return nil
    }
    lock.withLock {
      // Certificates change rarely; a full cache means something unusual, so start over.
      if parsed.count >= capacity { parsed.removeAll() }
      parsed[base64] = certificate
    }
    return certificate
  }
}
