import Testing

@testable import ReckonPolicy

/// The formatter's safety net: text that does not parse back to the same declarations is refused,
/// with where and why, instead of being written over a policy.
struct FormatVerifierTests {
  static let policy = """
    let limit = 3
    rule "a"
      when customer.refunds_last_90_days > 0.00001
      then refund DECLINE

    """

  static func verifier() -> FormatVerifier {
    let source = SourceFile(path: "policies/p.policy", text: policy)
    return FormatVerifier(
      original: Parser.parse(source).syntax, source: source, vocabulary: TestSchema.words)
  }

  @Test func faithfulTextIsAccepted() throws {
    try Self.verifier().verify(
      "let limit = 3\n\nrule \"a\" when customer.refunds_last_90_days > 0.000010 then refund DECLINE\n"
    )
  }

  @Test func textThatDoesNotParseIsRefusedAtTheDeclarationItCameFrom() {
    let broken = Self.policy.replacingOccurrences(of: "0.00001", with: "1e-05")
    let error = #expect(throws: PolicyFormatError.self) { try Self.verifier().verify(broken) }
    let rendered = error?.rendered() ?? ""
    #expect(rendered.contains("policies/p.policy:2:1: error: fmt would change what this means"))
    #expect(rendered.contains("line 3 would read '  when customer.refunds_last_90_days > 1e-05'"))
    #expect(rendered.contains("'1e' is not a number"))
  }

  @Test func textThatParsesToSomethingElseIsRefused() {
    let changed = Self.policy.replacingOccurrences(of: "0.00001", with: "0.0001")
    let error = #expect(throws: PolicyFormatError.self) { try Self.verifier().verify(changed) }
    #expect(error?.rendered().contains("policies/p.policy:2:1: error") == true)
  }
}
