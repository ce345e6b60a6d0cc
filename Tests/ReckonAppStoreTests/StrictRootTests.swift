import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// A chain to Apple's real root is held to OpenSSL's X509_STRICT, as Apple's own library holds
/// it; configured test roots stay lenient. Apple's test certificates have no Authority or Subject
/// Key Identifier, which X509_STRICT refuses.
struct StrictRootTests {
  static func certificate(_ name: String) throws -> X509Certificate {
    try #require(X509Certificate(pemOrDER: try AppleFixtures.data(name)), "\(name)")
  }

  @Test func applesRealChainPassesTheStrictCheck() throws {
    let verifier = CertificateChainVerifier(roots: AppleRootCertificates.defaultRoots())
    try verifier.verify(
      leaf: try Self.certificate("AppStoreReceiptSigning-leaf.pem"),
      intermediate: try Self.certificate("AppleWWDRCA-G6.pem"),
      at: Date(timeIntervalSince1970: 1_761_962_975))
  }

  @Test func aChainWithoutKeyIdentifiersPassesAConfiguredTestRoot() throws {
    let root = try Self.certificate("testCA.pem")
    try CertificateChainVerifier(roots: [root]).verify(
      leaf: try Self.certificate("testLeaf.pem"),
      intermediate: try Self.certificate("testIntermediate.pem"),
      at: Date(timeIntervalSince1970: 1_681_314_324))
  }

  @Test func theSameChainIsRefusedWhenItsRootIsHeldStrict() throws {
    let root = try Self.certificate("testCA.pem")
    let verifier = CertificateChainVerifier(roots: [root], strictRoots: [root])
    let error = #expect(throws: VerificationFailure.self) {
      try verifier.verify(
        leaf: try Self.certificate("testLeaf.pem"),
        intermediate: try Self.certificate("testIntermediate.pem"),
        at: Date(timeIntervalSince1970: 1_681_314_324))
    }
    #expect(
      "\(error.map { "\($0)" } ?? "")".contains("Key Identifier"), "\(String(describing: error))")
  }
}
