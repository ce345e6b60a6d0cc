import Foundation
import ReckonSupport

/// A certificate authority shaped like Apple's (root ▶ intermediate with Apple's intermediate OID ▶
/// leaf with Apple's leaf OID) that signs notifications the way the App Store does. For tests and
/// `reckon simulate`, never for production: a server trusts it only when configured to.
public struct LocalCertificateAuthority: Sendable {
  /// The self-signed root, to put in `trust.roots`.
  public let root: X509Certificate
  /// The intermediate certificate.
  public let intermediate: X509Certificate
  /// The leaf certificate that signs payloads.
  public let leaf: X509Certificate
  let signer: ES256Signer

  /// What to get deliberately wrong, for tests of the verifier.
  public struct Flaws: Hashable, Sendable {
    /// Leave Apple's OID off the leaf.
    public var leafWithoutOID = false
    /// Leave Apple's OID off the intermediate.
    public var intermediateWithoutOID = false
    /// Make the leaf expire before `now`.
    public var expiredLeaf = false
    /// Have the root sign the leaf itself, so the intermediate sent beside it is not its issuer.
    public var leafSignedByRoot = false

    /// No flaws.
    public init(
      leafWithoutOID: Bool = false, intermediateWithoutOID: Bool = false, expiredLeaf: Bool = false,
      leafSignedByRoot: Bool = false
    ) {
      self.leafWithoutOID = leafWithoutOID
      self.intermediateWithoutOID = intermediateWithoutOID
      self.expiredLeaf = expiredLeaf
      self.leafSignedByRoot = leafSignedByRoot
    }
  }

  /// Creates a new authority with fresh keys, valid from a day before `now` for ten years.
  public init(name: String = "Reckon Local Test", now: Date = Date(), flaws: Flaws = Flaws())
    throws(SigningError)
  {
    let rootKey = try PrivateKey(generatedFor: "\(name) root")
    let intermediateKey = try PrivateKey(generatedFor: "\(name) intermediate")
    let leafKey = try PrivateKey(generatedFor: "\(name) leaf")
    let valid = now.addingTimeInterval(-86_400)...now.addingTimeInterval(10 * 365 * 86_400)
    let expired = now.addingTimeInterval(-30 * 86_400)...now.addingTimeInterval(-86_400)
    root = try CertificateBuilder(
      subject: "\(name) Root CA", key: rootKey, issuer: nil, validity: valid, isAuthority: true,
      markerOIDs: [], serial: 1
    ).build()
    intermediate = try CertificateBuilder(
      subject: "\(name) Intermediate", key: intermediateKey, issuer: ("\(name) Root CA", rootKey),
      validity: valid,
      isAuthority: true,
      markerOIDs: flaws.intermediateWithoutOID ? [] : [CertificateChainVerifier.intermediateOID],
      serial: 2
    ).build()
    leaf = try CertificateBuilder(
      subject: "\(name) Signing", key: leafKey,
      issuer: flaws.leafSignedByRoot
        ? ("\(name) Root CA", rootKey) : ("\(name) Intermediate", intermediateKey),
      validity: flaws.expiredLeaf ? expired : valid, isAuthority: false,
      markerOIDs: flaws.leafWithoutOID ? [] : [CertificateChainVerifier.leafOID], serial: 3
    ).build()
    self.signer = ES256Signer(key: leafKey)
  }

  /// Signs `payload` as a compact JWS with the App Store's header: ES256 and the x5c chain.
  public func sign(payload: Data, algorithm: String = "ES256", x5c: [X509Certificate]? = nil)
    throws(SigningError) -> String
  {
    let chain = (x5c ?? [leaf, intermediate, root]).map { "\"\($0.der.base64EncodedString())\"" }
    let header = Data("{\"alg\":\"\(algorithm)\",\"x5c\":[\(chain.joined(separator: ","))]}".utf8)
    let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    let signature = try signer.sign(Data(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// The root as PEM, for a configuration's `trust.roots`.
  public func rootPEM() -> Data { root.pem() }
}

extension X509Certificate {
  /// The certificate as PEM.
  public func pem() -> Data {
    let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
    return Data("-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n".utf8)
  }
}
