import COpenSSL
import Foundation

/// Verifies that a leaf and an intermediate certificate chain to one of the configured roots, as
/// Apple's libraries do: the chain is built only from the leaf and intermediate up to a trusted
/// root (a root sent along is never trusted), both carry Apple's marker OIDs, and validity is
/// judged at a given time. Verified chains are cached.
public final class CertificateChainVerifier: @unchecked Sendable {
  /// The extension Apple puts on the App Store's signing leaf certificate.
  public static let leafOID = "1.2.840.113635.100.6.11.1"
  /// The extension Apple puts on the WWDR intermediate certificate.
  public static let intermediateOID = "1.2.840.113635.100.6.2.1"

  private let roots: [X509Certificate]
  /// The roots a chain to which is verified strictly as well (OpenSSL's X509_STRICT, as Apple's
  /// own library does for its root): a certificate without an Authority Key Identifier, say,
  /// is refused. Test roots, such as the local CA, are left lenient.
  private let strictRoots: [X509Certificate]
  private let lock = NSLock()
  // Guarded by `lock`: chains already verified, by leaf‖intermediate DER, with the window in which
  // the verdict holds (the intersection of both certificates' validity).
  private var verified: [[UInt8]: ClosedRange<Date>] = [:]
  // Guarded by `lock`: the same verdicts by the certificate objects, which `CertificateCache`
  // hands out again for the same bytes, so the usual lookup neither joins nor hashes kilobytes of
  // DER. The entry holds the objects, so their identities cannot be reused while it exists.
  private var verifiedObjects: [ObjectPair: (pair: [X509Certificate], window: ClosedRange<Date>)] =
    [:]

  private struct ObjectPair: Hashable {
    let leaf: ObjectIdentifier
    let intermediate: ObjectIdentifier
  }

  /// Creates a verifier trusting `roots`, of which those in `strictRoots` (by default Apple's
  /// real root) are held to X509_STRICT.
  public init(
    roots: [X509Certificate], strictRoots: [X509Certificate] = AppleRootCertificates.defaultRoots()
  ) {
    self.roots = roots
    self.strictRoots = strictRoots
  }

  /// Verifies the chain at `date`; throws what is wrong with it.
  public func verify(leaf: X509Certificate, intermediate: X509Certificate, at date: Date)
    throws(VerificationFailure)
  {
    let objects = ObjectPair(
      leaf: ObjectIdentifier(leaf), intermediate: ObjectIdentifier(intermediate))
    if let window = lock.withLock({ verifiedObjects[objects]?.window }), window.contains(date) {
      return
    }
    let key = leaf.derBytes + intermediate.derBytes
    if let window = cachedWindow(key), window.contains(date) {
      remember(objects, [leaf, intermediate], window)
      return
    }
    guard leaf.hasExtension(oid: Self.leafOID) else {
      throw .missingAppleOID(certificate: "leaf", oid: Self.leafOID)
    }
    guard intermediate.hasExtension(oid: Self.intermediateOID) else {
      throw .missingAppleOID(certificate: "intermediate", oid: Self.intermediateOID)
    }
    try verifyWithOpenSSL(leaf: leaf, intermediate: intermediate, at: date)
    if let window = validity(leaf, intermediate) {
      remember(key, window)
      remember(objects, [leaf, intermediate], window)
    }
  }

  private func verifyWithOpenSSL(
    leaf: X509Certificate, intermediate: X509Certificate, at date: Date
  ) throws(VerificationFailure) {
    let root = try verifyWithOpenSSL(
      leaf: leaf, intermediate: intermediate, at: date, strict: false)
    // Which root a chain leads to is known only once it is built, so a chain to a strict root is
    // verified a second time, strictly; verdicts are cached, so this is once per chain.
    if strictRoots.contains(where: { X509_cmp($0.pointer, root.pointer) == 0 }) {
      _ = try verifyWithOpenSSL(leaf: leaf, intermediate: intermediate, at: date, strict: true)
    }
  }

  /// Verifies the chain, strictly when asked; returns the root it leads to.
  private func verifyWithOpenSSL(
    leaf: X509Certificate, intermediate: X509Certificate, at date: Date, strict: Bool
  ) throws(VerificationFailure) -> X509Certificate {
    guard let store = X509_STORE_new() else {
      throw .untrustedChain("cannot create a certificate store")
    }
    defer { X509_STORE_free(store) }
    for root in roots { X509_STORE_add_cert(store, root.pointer) }
    guard let untrusted = OPENSSL_sk_new_null() else {
      throw .untrustedChain("cannot create a certificate stack")
    }
    defer { OPENSSL_sk_free(untrusted) }
    OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.pointer))
    guard let context = X509_STORE_CTX_new() else {
      throw .untrustedChain("cannot create a verification context")
    }
    defer { X509_STORE_CTX_free(context) }
    guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
      throw .untrustedChain("cannot start verification")
    }
    guard let seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else {
      throw .untrustedChain("the signing time \(date.timeIntervalSince1970) s is out of range")
    }
    X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), seconds)
    if strict {
      X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_X509_STRICT))
    }
    guard X509_verify_cert(context) == 1 else {
      let code = X509_STORE_CTX_get_error(context)
      let reason = String(cString: X509_verify_cert_error_string(Int(code)))
      if code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID {
        throw .certificateNotValidAtSigningTime(reason)
      }
      throw .untrustedChain(reason)
    }
    // OpenSSL builds a path of its own from what it has; Apple's is the chain as sent: the leaf,
    // the intermediate whose OID was checked, then a configured root.
    guard let chain = X509_STORE_CTX_get0_chain(context), OPENSSL_sk_num(chain) == 3,
      let issuer = OPENSSL_sk_value(chain, 1),
      X509_cmp(OpaquePointer(issuer), intermediate.pointer) == 0,
      let top = OPENSSL_sk_value(chain, 2),
      let root = roots.first(where: { X509_cmp($0.pointer, OpaquePointer(top)) == 0 })
    else {
      throw .untrustedChain("the leaf is not issued by the intermediate sent with it")
    }
    return root
  }

  private func validity(_ leaf: X509Certificate, _ intermediate: X509Certificate) -> ClosedRange<
    Date
  >? {
    guard let from = [leaf.notBefore, intermediate.notBefore].compactMap({ $0 }).max(),
      let until = [leaf.notAfter, intermediate.notAfter].compactMap({ $0 }).min(), from <= until
    else { return nil }
    return from...until
  }

  private func cachedWindow(_ key: [UInt8]) -> ClosedRange<Date>? {
    lock.lock()
    defer { lock.unlock() }
    return verified[key]
  }

  private func remember(_ key: [UInt8], _ window: ClosedRange<Date>) {
    lock.lock()
    defer { lock.unlock() }
    if verified.count > 64 { verified.removeAll() }  // chains change rarely; keep the cache small
    verified[key] = window
  }

  private func remember(
    _ objects: ObjectPair, _ pair: [X509Certificate], _ window: ClosedRange<Date>
  ) {
    lock.lock()
    defer { lock.unlock() }
    if verifiedObjects.count > 64 { verifiedObjects.removeAll() }
    verifiedObjects[objects] = (pair, window)
  }
}
