import Testing

@testable import ReckonAppStore

/// The JWS is cut at its dots exactly as `split(separator:omittingEmptySubsequences: false)`
/// would, empty parts and non-ASCII text included.
@Suite struct JWSPartsTests {
  @Test(arguments: [
    "", ".", "..", "a.b.c", "a..c", ".b.", "a.b.c.d.e", "abc", "é.ü.日本", "eyJh.eyJi.c2ln",
    String(repeating: "ab.", count: 2_000), String(repeating: "x", count: 9_000) + ".y.",
  ])
  func partsAreTheDotSeparatedSlicesOfTheText(jws: String) {
    let expected = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    #expect(SignedPayloadVerifier.dotSeparatedParts(jws).map(String.init) == expected)
  }
}
