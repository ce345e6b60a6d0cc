import ReckonFacts
import ReckonPolicy
import Testing

/// The slips product owners made writing policies from the docs alone: one error each, with the
/// form to write.
struct AuthorSlipTests {
  static func load(_ text: String) -> PolicyLoader.Result {
    PolicyLoader.load(
      SourceFile(path: "p.policy", text: text), schema: FactSchema.standard.policySchema)
  }

  @Test(arguments: [
    (
      "rule \"r\"\n  when usage.consumed > 80 percent\n  then refund DECLINE",
      "a percentage is written with %: 80%"
    ),
    ("rule \"r\"\n  when reason == LEGAL\n  refund DECLINE", "a rule's actions follow 'then'"),
    (
      "rule \"r\"\n  then refund DECLINE",
      "say when the rule applies before 'then', as in when reason == LEGAL"
    ),
    (
      "let ratio = customer.lifetime_refunded / customer.lifetime_spent\nrule \"r\"\n  when customer.lifetime_spent > 0 USD and ratio > 50%\n  then refund DECLINE",
      "a ratio is a number: write 50% as 0.5"
    ),
  ])
  func aSlipIsOneErrorWithTheFormToWrite(policy: String, hint: String) {
    let result = Self.load(policy)
    #expect(result.diagnostics.count == 1, "\(result.renderedDiagnostics())")
    let said = (result.diagnostics.first?.hint ?? "") + (result.diagnostics.first?.message ?? "")
    #expect(said.contains(hint), "\(result.renderedDiagnostics())")
  }

  @Test func anUndeclaredCustomFactIsOneErrorHoweverOftenItIsUsed() {
    let result = Self.load(
      """
      rule "a" when custom.vip == true and custom.tier > 2 then refund DECLINE
      rule "b" when custom.vip == false and custom.tier > 3 then refund DECLINE
      rule "c" when custom.vip then refund GRANT_FULL
      """)
    #expect(result.diagnostics.map(\.id) == [.unknownFact, .unknownFact])
    #expect(result.diagnostics.map(\.span.start) == [14, 37])
  }

  @Test func aReasonComparedWithADurationSaysWhatAReasonIs() throws {
    let result = Self.load("rule \"r\" when reason > 3 days then refund DECLINE")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.message == "cannot compare a reason with a duration")
    #expect(diagnostic.hint?.contains("a reason is one of UNINTENDED_PURCHASE") == true)
  }
}
