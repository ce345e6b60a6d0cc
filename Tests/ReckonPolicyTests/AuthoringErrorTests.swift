import Testing

@testable import ReckonPolicy

/// Errors a policy author makes often, each reported once, where it was made, saying how to fix it.
struct AuthoringErrorTests {
  /// The errors of `text`, rendered, with the diagnostics themselves.
  private func errors(_ text: String) -> (diagnostics: [Diagnostic], rendered: String) {
    let result = TestSchema.load(text)
    return (result.diagnostics.filter(\.isError), result.renderedDiagnostics())
  }

  @Test func aNameWithLettersOutsideASCIIIsOneErrorSayingWhichLettersNamesUse() {
    let (diagnostics, rendered) = errors(
      """
      let größe = 1
      rule "a" when größe > 0 and usage.cönsumed > 5% then refund DECLINE
      """)
    #expect(diagnostics.count == 3, "\(rendered)")
    #expect(
      diagnostics.first?.message
        == "'größe' is not a name the language can read: names use a–z, A–Z, 0–9 and _",
      "\(rendered)")
    #expect(diagnostics.last?.message.hasPrefix("'usage.cönsumed' is not a name") == true)
  }

  @Test func aLowerCaseCurrencySaysCurrencyCodesAreUpperCase() {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when purchase.price > 4.99 usd then refund DECLINE")
    #expect(diagnostics.map(\.message) == ["currency codes are upper case: USD"], "\(rendered)")
    #expect(diagnostics.first?.hint == "write 4.99 USD")
  }

  @Test func aLowerCaseCurrencyInAFactValueSaysCurrencyCodesAreUpperCase() {
    do {
      _ = try ValueParser.parse("4.99 usd", as: .money)
      Issue.record("4.99 usd was read as money")
    } catch {
      #expect(error.hint == "currency codes are upper case: 4.99 USD")
    }
  }

  @Test(arguments: [
    ("$5", "write 5 USD (or CAD, AUD … for another dollar)"), ("€4.99", "write 4.99 EUR"),
    ("¥500", "write 500 JPY (or CNY for yuan)"),
  ])
  func moneyWithACurrencySymbolHintsTheAmountAndCode(_ written: String, _ hint: String) {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when purchase.price > \(written) then refund DECLINE")
    #expect(diagnostics.count == 1, "\(rendered)")
    #expect(diagnostics.first?.hint == hint, "\(rendered)")
  }

  @Test func anEnumValueOfAnotherFactSaysWhichFactItBelongsTo() {
    let (diagnostics, rendered) = errors("rule \"a\" when reason == DELIVERED then refund DECLINE")
    #expect(diagnostics.map(\.message) == ["unknown value 'DELIVERED' for reason"], "\(rendered)")
    #expect(diagnostics.first?.hint?.hasPrefix("DELIVERED is a value of delivery.status; ") == true)
  }

  @Test func aRuleWithNoThenIsReportedAtTheEndOfItsCondition() {
    let text = """
      rule "a"
        when reason == LEGAL
      rule "b" when reason == OTHER then refund DECLINE
      """
    let (diagnostics, rendered) = errors(text)
    #expect(diagnostics.map(\.message) == ["this rule has no 'then'"], "\(rendered)")
    #expect(rendered.hasPrefix("test.policy:2:23: error: this rule has no 'then'"), "\(rendered)")
    let last = errors("rule \"a\" when reason == LEGAL\n")
    #expect(last.rendered.hasPrefix("test.policy:1:30: error: this rule has no 'then'"))
  }
}
