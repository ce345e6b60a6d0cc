import Foundation
import Testing

@testable import ReckonAppStore

/// The verifier remembers a header's certificates by its exact text, but only once the chain it
/// names verified: headers chaining to nothing trusted cannot push Apple's out of the cache.
struct SignedHeaderCacheTests {
  private static func payload() -> Data {
    Data(#"{"signedDate":\#(Int64(Date().timeIntervalSince1970 * 1000)),"x":1}"#.utf8)
  }

  @Test func onlyHeadersWhoseChainVerifiedAreRemembered() throws {
    let trusted = try LocalCertificateAuthority()
    let verifier = SignedPayloadVerifier(roots: [trusted.root])
    for index in 0..<20 {
      let stranger = try LocalCertificateAuthority(name: "Stranger \(index)")
      #expect(throws: VerificationFailure.self) {
        try verifier.verify(try stranger.sign(payload: Self.payload())) { _ in nil }
      }
    }
    #expect(verifier.headers.count == 0)
    _ = try verifier.verify(try trusted.sign(payload: Self.payload())) { _ in nil }
    _ = try verifier.verify(try trusted.sign(payload: Self.payload())) { _ in nil }
    #expect(verifier.headers.count == 1)
  }
}
