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
    #expect(
      rendered.hasPrefix("test.policy:2:23: error[P0206]: this rule has no 'then'"), "\(rendered)")
    let last = errors("rule \"a\" when reason == LEGAL\n")
    #expect(last.rendered.hasPrefix("test.policy:1:30: error[P0206]: this rule has no 'then'"))
  }

  /// The slips of a first policy, each met with the form to write rather than only what the
  /// parser expected.
  @Test(arguments: [
    (
      "customer.refunds_last_90_days == missing",
      "a missing fact is tested with 'is missing' or 'is not missing', as in customer.override is missing"
    ),
    ("reason in LEGAL", "a list is written in brackets, even of one value: in [LEGAL]"),
    ("purchase.price > 1,99 USD", "a decimal takes a point: 1.99"),
    ("purchase.price > 1,000 USD", "numbers are written without separators: 1000"),
    (
      "reason in LEGAL, OTHER",
      "a list is written in brackets, even of one value: in [LEGAL, OTHER]"
    ),
    ("purchase.price > 100 euros", "money is written with its ISO 4217 code: 100 EUR"),

    ("purchase.price > USD 2", "a currency follows its amount, as in 2 USD"),
    (
      "purchase.price > 100 dollars",
      "money is written with its ISO 4217 code: 100 USD, CAD, AUD…"
    ),
    (
      "product.id == com.example.coins.pack500",
      "text is written in quotes, as in \"com.example.coins.pack500\""
    ),
    ("product.id startswith \"com\"", "did you mean 'starts with'?"),
    ("product.id endswith \"100\"", "did you mean 'ends with'?"),
    ("reason == UNINTENDED", "did you mean 'UNINTENDED_PURCHASE'?"),
    (
      "usage.consumed > 80 percent",
      "a percentage is written with %: 80%"
    ),
  ])
  func aFirstPolicysSlipIsMetWithTheFormToWrite(_ condition: String, _ hint: String) {
    let (diagnostics, rendered) = errors("rule \"a\" when \(condition) then refund DECLINE")
    #expect(diagnostics.contains { $0.hint == hint }, "\(rendered)")
  }

  /// A number written with separators or a decimal comma gets the number as the language writes
  /// it, whatever the grouping, and no second error about the part before the comma (read as
  /// the whole amount, it was "a number" compared with money).
  @Test(arguments: [
    ("1,000.00 USD", "numbers are written without separators: 1000.00"),
    ("1,234,567.89 USD", "numbers are written without separators: 1234567.89"),
    ("2,500 USD", "numbers are written without separators: 2500"),
    ("4,99 EUR", "a decimal takes a point: 4.99"),
    ("1.000,00 EUR", "numbers are written without separators, with a decimal point: 1000.00"),
  ])
  func aNumberWithSeparatorsIsOneErrorWithTheNumberToWrite(_ amount: String, _ hint: String) {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when purchase.price > \(amount) then refund DECLINE")
    #expect(diagnostics.map(\.hint) == [hint], "\(rendered)")
  }

  /// A misnamed fact keeps its spelling suggestion; the quotes hint is for text only.
  @Test func aMisnamedFactIsNotToldToUseQuotes() {
    // The second is compared with text, where an unquoted dotted name could be text.
    for condition in ["customer.vip_level > 2", "product.id == purchase.something_else_entirely"] {
      let (diagnostics, rendered) = errors("rule \"a\" when \(condition) then refund DECLINE")
      #expect(diagnostics.count == 1, "\(rendered)")
      #expect(diagnostics.first?.hint?.contains("quotes") != true, "\(rendered)")
    }
  }

  /// A `then` left out is just that: the word after the condition gets the hint to write it,
  /// not one that would send the author looking for a unit; a dotted name that is not text gets
  /// no quotes either.
  @Test func aMissingThenGetsNoMisleadingHint() {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when customer.refunds_last_90_days > 5 refund DECLINE")
    #expect(diagnostics.first?.message.hasPrefix("expected 'then'") == true, "\(rendered)")
    #expect(
      diagnostics.map(\.hint) == ["a rule's actions follow 'then': write then refund …"],
      "\(rendered)")
  }

  /// A keyword in capitals or spelt out is told the keyword; a comparison written in words is
  /// told the operator, with no second error about the part before it.
  @Test(arguments: [
    (
      "rule \"a\" When reason == LEGAL then refund DECLINE",
      "keywords are written in lower case: when"
    ),
    ("rule \"a\" wen reason == LEGAL then refund DECLINE", "did you mean 'when'?"),
    (
      "rule \"a\" when reason == LEGAL Then refund DECLINE",
      "keywords are written in lower case: then"
    ),
    ("rule \"a\" when reason == LEGAL than refund DECLINE", "did you mean 'then'?"),
    (
      "rule \"a\" when reason == LEGAL AND usage.consumed > 5% then refund DECLINE",
      "keywords are written in lower case: and"
    ),
    (
      "rule \"a\" when reason equals LEGAL then refund DECLINE",
      "compare with ==, as in reason == LEGAL"
    ),
    (
      "rule \"a\" when reason is LEGAL then refund DECLINE",
      "'is' tests for a missing fact (is missing, is not missing); to compare with a value, write == LEGAL"
    ),
    (
      "rule \"a\" when reason is not LEGAL then refund DECLINE",
      "'is' tests for a missing fact (is missing, is not missing); to compare with a value, write != LEGAL"
    ),
    ("rule \"a\" when customer.override is missin then refund DECLINE", "did you mean 'missing'?"),
    ("rule \"a\" when customer.override is not null then refund DECLINE", "write is not missing"),
    ("rule \"a\" when customer.override is set then refund DECLINE", "write is not missing"),
    (
      "rule \"a\" when reason is in [LEGAL] then refund DECLINE",
      "drop 'is': write in […]"
    ),
    (
      "rule \"a\" when customer.override not missing then refund DECLINE",
      "'not' goes after 'is' (is not missing) or before 'in' (not in [LEGAL, OTHER])"
    ),
    (
      "rule \"a\" when customer.override Not missing then refund DECLINE",
      "'not' goes after 'is' (is not missing) or before 'in' (not in [LEGAL, OTHER])"
    ),
    (
      "rule \"a\" when customer.consented is true then refund DECLINE",
      "'is' tests for a missing fact (is missing, is not missing); to compare with a value, write == true"
    ),
    ("rule \"a\" when reason == LEGAL when refund DECLINE", "did you mean 'then'?"),
  ])
  func aKeywordOrOperatorInOtherWordsIsOneErrorWithTheFormToWrite(_ text: String, _ hint: String) {
    let (diagnostics, rendered) = errors(text)
    #expect(diagnostics.map(\.hint) == [hint], "\(rendered)")
  }

  @Test func aDottedNameComparedWithAValueIsNotToldToUseQuotes() {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when transaction.type == CONSUMABLE then refund DECLINE")
    #expect(!diagnostics.isEmpty)
    #expect(diagnostics.allSatisfy { $0.hint?.contains("quotes") != true }, "\(rendered)")
  }
}

extension AuthoringErrorTests {
  /// A currency symbol after the amount (`10 €`, `10€`) is one error naming the code to write,
  /// as one before it (`€10`) is; the rest of the condition checks as money.
  @Test(arguments: [
    ("10 €", "write 10 EUR"), ("10€", "write 10 EUR"), ("4.99 £", "write 4.99 GBP"),
  ])
  func aCurrencySymbolAfterTheAmountIsOneErrorWithTheCode(_ amount: String, _ hint: String) {
    let (diagnostics, rendered) = errors(
      "rule \"a\" when purchase.price > \(amount) then refund DECLINE")
    #expect(diagnostics.map(\.hint) == [hint], "\(rendered)")
    #expect(diagnostics.first?.message == "money is written as an amount and a currency code")
  }
}

extension AuthoringErrorTests {
  /// A keyword where another belongs is a part left out, not a misspelling: no "did you mean".
  @Test func aRuleWithoutItsConditionIsNotToldToSpellWhen() {
    let (diagnostics, rendered) = errors("rule \"a\"\n  then refund DECLINE\n")
    #expect(diagnostics.first?.message == "expected 'when', found 'then'", "\(rendered)")
    #expect(
      diagnostics.allSatisfy {
        $0.hint?.hasPrefix("say when the rule applies before 'then'") == true
      },
      "\(rendered)")
  }

  /// A number the lexer could not read has been reported; no hint is built on its empty text.
  @Test(arguments: ["purchase.price > 12abc €", "purchase.price > 1a,000 USD"])
  func anUnreadableNumberFeedsNoHint(_ condition: String) {
    let (diagnostics, rendered) = errors("rule \"a\" when \(condition) then refund DECLINE")
    #expect(!diagnostics.contains { $0.hint?.hasPrefix("write  ") == true }, "\(rendered)")
    #expect(
      !diagnostics.contains { $0.hint?.contains("without separators") == true }, "\(rendered)")
  }
}
