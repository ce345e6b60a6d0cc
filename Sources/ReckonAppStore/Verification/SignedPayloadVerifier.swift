import Foundation
import ReckonSupport

/// Verifies a compact JWS signed by the App Store: header `alg` ES256, exactly three `x5c`
/// certificates, the leaf and intermediate chaining to a configured root with Apple's OIDs and
/// valid at the payload's `signedDate`, and the ES256 signature by the leaf's key.
public struct SignedPayloadVerifier: Sendable {
  private let chains: CertificateChainVerifier
  private let certificates = CertificateCache()
  /// Headers already read; internal so tests can see what is remembered.
  let headers = SignedHeaderCache()
  /// Environments whose payloads are accepted without a chain to the roots (Xcode, LocalTesting),
  /// because Apple signs them with a local key; only when the configuration allows it.
  public let unverifiedEnvironments: Set<AppStoreEnvironment>

  /// Creates a verifier trusting `roots`.
  public init(roots: [X509Certificate], unverifiedEnvironments: Set<AppStoreEnvironment> = []) {
    self.chains = CertificateChainVerifier(roots: roots)
    self.unverifiedEnvironments = unverifiedEnvironments.intersection([.xcode, .localTesting])
  }

  /// Verifies `jws` and returns its decoded payload JSON; `environment` reads the payload's
  /// environment (where the payload keeps it differs between notifications and transactions).
  public func verify(_ jws: String, environment: (JSONValue) -> String?) throws(VerificationFailure)
    -> Data
  {
    try verifiedPayload(jws, environment: environment).data
  }

  /// Verifies `jws` as `verify(_:environment:)` does and returns its payload both as bytes and as
  /// the JSON value already parsed from them, so callers need not parse it again.
  public func verifiedPayload(_ jws: String, environment: (JSONValue) -> String?)
    throws(VerificationFailure) -> (data: Data, json: JSONValue)
  {
    let parts = Self.dotSeparatedParts(jws)
    guard parts.count == 3 else {
      throw .malformed("expected three dot-separated parts, found \(parts.count)")
    }
    let header = try readHeader(String(parts[0]))
    guard let payload = Base64URL.decode(parts[1]), let payloadJSON = try? JSONValue.parse(payload),
      payloadJSON.objectValue != nil
    else { throw .malformed("the payload is not base64url JSON") }
    guard let signature = Base64URL.decode(parts[2]) else {
      throw .malformed("the signature is not base64url")
    }

    if let name = environment(payloadJSON), let claimed = AppStoreEnvironment(rawValue: name),
      unverifiedEnvironments.contains(claimed)
    {
      return (payload, payloadJSON)
    }
    let (leaf, intermediate) = try signingCertificates(header)
    try chains.verify(leaf: leaf, intermediate: intermediate, at: signedDate(payloadJSON))
    // Remembered only once its chain verified, so headers that chain to nothing trusted cannot
    // push the genuine ones out of the small cache.
    if case .parsed(let text, _) = header {
      headers.store(.init(text: text, leaf: leaf, intermediate: intermediate))
    }
    // The signing input, header.payload, is the JWS up to its second dot: one copy, not three.
    let message = Data(jws.utf8[..<parts[1].endIndex])
    guard ES256SignatureCheck.isValid(signature: signature, message: message, certificate: leaf)
    else {
      throw .invalidSignature
    }
    return (payload, payloadJSON)
  }

  /// The payload `jws` claims, read with nothing checked: no header, chain or signature. Only
  /// for telling apart what is never decided on (the other store's lines in a dry-run).
  public static func claimedPayload(_ jws: String) -> JSONValue? {
    let parts = dotSeparatedParts(jws)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
      let json = try? JSONValue.parse(payload), json.objectValue != nil
    else { return nil }
    return json
  }

  /// The JWS's dot-separated parts. The dots are found with `memchr` in the contiguous UTF-8
  /// bytes: a JWS is several kilobytes, and a byte-at-a-time scan shows in a webhook request.
  static func dotSeparatedParts(_ jws: String) -> [Substring] {
    let dots =
      jws.utf8.withContiguousStorageIfAvailable { bytes -> [Int] in
        var found: [Int] = []
        while let dot = bytes.firstOffset(of: UInt8(ascii: "."), from: (found.last ?? -1) + 1) {
          found.append(dot)
        }
        return found
      }
      ?? jws.utf8.indices.filter { jws.utf8[$0] == UInt8(ascii: ".") }.map {
        jws.utf8.distance(from: jws.utf8.startIndex, to: $0)
      }
    var parts: [Substring] = []
    var start = jws.utf8.startIndex
    for offset in dots {
      let dot = jws.utf8.index(jws.utf8.startIndex, offsetBy: offset)
      parts.append(Substring(jws.utf8[start..<dot]))
      start = jws.utf8.index(after: dot)
    }
    parts.append(Substring(jws.utf8[start...]))
    return parts
  }

  /// A header read from its text, or found already read.
  private enum Header {
    case known(SignedHeaderCache.Entry)
    case parsed(text: String, fields: [String: JSONValue])
  }

  private func readHeader(_ text: String) throws(VerificationFailure) -> Header {
    if let known = headers.entry(for: text) { return .known(known) }
    guard let data = Base64URL.decode(text), let fields = (try? JSONValue.parse(data))?.objectValue
    else {
      throw .malformed("the header is not base64url JSON")
    }
    return .parsed(text: text, fields: fields)
  }

  /// The leaf and intermediate a header names, once its algorithm is ES256.
  private func signingCertificates(_ header: Header) throws(VerificationFailure) -> (
    X509Certificate, X509Certificate
  ) {
    switch header {
    case .known(let entry): return (entry.leaf, entry.intermediate)
    case .parsed(_, let fields):
      guard case .string(let algorithm)? = fields["alg"] else {
        throw .unsupportedAlgorithm("missing")
      }
      // Quoted in the answer and the log, and anyone can send it: a 180 KB `alg` made a
      // 180 KB log line per request.
      guard algorithm == "ES256" else {
        throw .unsupportedAlgorithm(QuotedText.cut(algorithm, to: 32))
      }
      return try chainCertificates(fields)
    }
  }

  private func chainCertificates(_ header: [String: JSONValue]) throws(VerificationFailure) -> (
    X509Certificate, X509Certificate
  ) {
    guard case .array(let entries)? = header["x5c"] else {
      throw .invalidCertificateList("the header has no x5c")
    }
    guard entries.count == 3 else {
      throw .invalidCertificateList("expected 3 certificates, found \(entries.count)")
    }
    var parsed: [X509Certificate] = []
    for (index, entry) in entries.prefix(2).enumerated() {
      guard case .string(let base64) = entry,
        let certificate = certificates.certificate(base64: base64)
      else { throw .invalidCertificateList("certificate \(index) is not base64 DER") }
      parsed.append(certificate)
    }
    return (parsed[0], parsed[1])
  }

  /// Apple judges certificate validity at the payload's signing time when online checks are off.
  /// It is read before the signature is checked, so a time no certificate can hold (a forger's
  /// `1e30`) is refused here rather than reach OpenSSL's `time_t`.
  private func signedDate(_ payload: JSONValue) throws(VerificationFailure) -> Date {
    let milliseconds: Double
    switch payload.objectValue?["signedDate"] {
    case nil: return Date()
    case .integer(let value)?: milliseconds = Double(value)
    case .number(let value)?: milliseconds = value
    default: throw .malformed("signedDate is not a number")
    }
    guard let date = AppStoreJSON.date(milliseconds: milliseconds) else {
      throw .malformed("signedDate " + AppStoreJSON.notATime(milliseconds))
    }
    return date
  }
}
