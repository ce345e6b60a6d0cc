import COpenSSL
import Foundation

/// An X.509 certificate held by OpenSSL.
public final class X509Certificate: @unchecked Sendable {
  // The pointer is never mutated after init and OpenSSL's X509 is safe for concurrent reads.
  let pointer: OpaquePointer
  /// The certificate in DER, as OpenSSL re-encodes it; kept because chain caching keys on it for
  /// every notification. An array, not `Data`: Data's enum packs its storage pointer with tag
  /// bits, which LeakSanitizer cannot follow, so the fuzzers reported every cached DER as leaked.
  let derBytes: [UInt8]

  /// The certificate in DER, as OpenSSL re-encodes it.
  public var der: Data { Data(derBytes) }

  /// Parses a DER-encoded certificate.
  public init?(der: Data) {
    let parsed = der.withUnsafeBytes { raw -> OpaquePointer? in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var cursor: UnsafePointer<UInt8>? = base
      return d2i_X509(nil, &cursor, raw.count)
    }
    guard let parsed else { return nil }
    pointer = parsed
    derBytes = Self.encoded(parsed)
  }

  /// Parses the first certificate of a PEM text, or DER if the bytes are not PEM.
  public convenience init?(pemOrDER data: Data) {
    if let text = String(data: data, encoding: .utf8),
      let begin = text.range(of: "-----BEGIN CERTIFICATE-----"),
      let end = text.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<text.endIndex)
    {
      let body = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
      guard let der = Data(base64Encoded: String(body)) else { return nil }
      self.init(der: der)
    } else {
      self.init(der: data)
    }
  }

  init(taking pointer: OpaquePointer) {
    self.pointer = pointer
    derBytes = Self.encoded(pointer)
  }

  deinit {
    X509_free(pointer)
  }

  private static func encoded(_ pointer: OpaquePointer) -> [UInt8] {
    var output: UnsafeMutablePointer<UInt8>? = nil
    let length = i2d_X509(pointer, &output)
    guard length > 0, let output else { return [] }
    defer { CRYPTO_free(output, #fileID, #line) }
    return Array(UnsafeBufferPointer(start: output, count: Int(length)))
  }

  /// Whether the certificate carries an extension with this dotted OID.
  public func hasExtension(oid: String) -> Bool {
    guard let object = OBJ_txt2obj(oid, 1) else { return false }
    defer { ASN1_OBJECT_free(object) }
    return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
  }

  /// Whether the certificate may sign others (basicConstraints CA, or OpenSSL's other signs of
  /// a CA): a leaf configured as a root anchors no chain.
  public var isCertificateAuthority: Bool { X509_check_ca(pointer) > 0 }

  /// The first moment the certificate is valid.
  public var notBefore: Date? { X509Certificate.date(X509_get0_notBefore(pointer)) }

  /// The last moment the certificate is valid.
  public var notAfter: Date? { X509Certificate.date(X509_get0_notAfter(pointer)) }

  /// The subject as one line, for messages.
  public var subject: String {
    guard let name = X509_get_subject_name(pointer), let line = X509_NAME_oneline(name, nil, 0)
    else { return "?" }
    defer { CRYPTO_free(line, #fileID, #line) }
    return String(cString: line)
  }

  private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
    guard let time else { return nil }
    var parts = tm()
    guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
  }
}

extension X509Certificate {
  /// The SHA-256 fingerprint of the DER, lower-case hex.
  public var sha256Fingerprint: String { SHA256Digest.hex(der) }
}
