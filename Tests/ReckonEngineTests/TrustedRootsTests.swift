import Foundation
import ReckonAppStore
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// What notifications must chain to: Apple Root CA - G3 unless `trust.roots` names others, which
/// then replace it (so a test CA is never trusted beside Apple's by accident).
@Suite struct TrustedRootsTests {
  static func trust(_ json: String) throws -> TrustConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}]\(json)}
      """
    let root = try JSONValue.parse(Data(text.utf8)).objectValue ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: "reckon.json"), baseDirectory: "/"
    )
    .trust
  }

  @Test func withoutConfiguredRootsOnlyAppleRootCAG3IsTrusted() throws {
    let trust = try Self.trust("")
    let roots = try ReckonService.roots(trust)
    #expect(roots.map(\.der) == AppleRootCertificates.defaultRoots().map(\.der))
    #expect(roots.count == 1)
    #expect(!trust.allowXcode && !trust.allowLocalTesting)
  }

  @Test func configuredRootsReplaceApplesRoot() throws {
    let folder = TestScratch.folder.appendingPathComponent("roots-\(UUID())")
    let authority = try LocalCertificateAuthority()
    try authority.write(to: folder.path)
    let path = folder.appendingPathComponent(LocalCertificateAuthority.FileName.root).path
    let roots = try ReckonService.roots(try Self.trust(#", "trust": {"roots": ["\#(path)"]}"#))
    #expect(roots.map(\.der) == [authority.root.der])
  }

  @Test func aRootThatCannotBeReadStopsStartUp() throws {
    let trust = try Self.trust(#", "trust": {"roots": ["/nonexistent/root.pem"]}"#)
    #expect(throws: ReckonServiceError.root(path: "/nonexistent/root.pem", reason: "no such file"))
    {
      try ReckonService.roots(trust)
    }
  }

  /// `trust.roots` naming the leaf (or the intermediate's neighbour, any certificate that signs
  /// nothing) would have every notification refused as untrusted: start-up says so instead.
  @Test func aCertificateThatIsNoCAIsRefusedAsARoot() throws {
    let folder = TestScratch.folder.appendingPathComponent("leaf-root-\(UUID())")
    let authority = try LocalCertificateAuthority()
    try authority.write(to: folder.path)
    let path = folder.appendingPathComponent(LocalCertificateAuthority.FileName.leaf).path
    let trust = try Self.trust(#", "trust": {"roots": ["\#(path)"]}"#)
    let error = #expect(throws: ReckonServiceError.self) { try ReckonService.roots(trust) }
    guard case .root(let named, let reason)? = error else {
      Issue.record("not a root error: \(String(describing: error))")
      return
    }
    #expect(named == path)
    #expect(reason.hasPrefix("is not a CA certificate"), "\(reason)")
    #expect(authority.root.isCertificateAuthority && authority.intermediate.isCertificateAuthority)
  }
}
