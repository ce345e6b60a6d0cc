import Testing

@testable import ReckonPolicy

/// Money in two currencies compares with the configured rates; without them it is unknown, and
/// a condition that compares with one currency only is warned about.
struct CurrencyRatesTests {
  static let rates = CurrencyRates(["USD": 1, "EUR": 1.2, "GBP": 1.25])

  static func load(_ text: String, rates: CurrencyRates = .none) -> PolicyLoader.Result {
    PolicyLoader.load(
      SourceFile(path: "test.policy", text: text),
      schema: TestSchema.schema.with(currencyRates: rates))
  }

  static let expensive = """
    rule "expensive"
      when purchase.price is not missing and purchase.price > 50 USD
      then refund DECLINE
    otherwise share data only
    """

  @Test(
    arguments: [
      (45_000, "EUR", true), (40_000, "EUR", false), (60_000, "USD", true), (50_000, "JPY", nil),
    ] as [(Int64, String, Bool?)])
  func moneyInAnotherCurrencyIsConvertedWithTheRates(milli: Int64, currency: String, matches: Bool?)
    throws
  {
    let policy = try #require(Self.load(Self.expensive, rates: Self.rates).policy)
    let facts = try TestSchema.baseFacts(["purchase.price": .money(milli, currency: currency)])
    for trace in [false, true] {
      let decision = policy.evaluate(facts, trace: trace)
      // A currency without a rate stays unknown: the rule does not match.
      #expect(decision.rule == (matches == true ? 0 : nil))
    }
  }

  @Test func withoutRatesAnotherCurrencyIsUnknown() throws {
    let policy = try #require(Self.load(Self.expensive).policy)
    let facts = try TestSchema.baseFacts(["purchase.price": .money(90_000, currency: "EUR")])
    #expect(policy.evaluate(facts).rule == nil)
  }

  @Test func aComparisonWithOneCurrencyIsWarnedAboutWithoutRates() {
    #expect(Self.load(Self.expensive).diagnostics.map(\.id) == [.singleCurrencyMoney])
    #expect(Self.load(Self.expensive, rates: Self.rates).diagnostics.isEmpty)
    let both = """
      rule "expensive"
        when purchase.price is not missing and (purchase.price > 50 USD or purchase.price > 45 EUR)
        then refund DECLINE
      """
    #expect(Self.load(both).diagnostics.isEmpty)
    let held =
      "hold \"big\" when purchase.price is not missing and purchase.price > 50 USD\notherwise share data only"
    #expect(Self.load(held).diagnostics.map(\.id) == [.singleCurrencyMoney])
  }

  @Test func twoConstantCurrenciesNeedRatesForBoth() {
    let text = "rule \"r\" when 50 EUR > 40 USD then refund DECLINE"
    #expect(Self.load(text).diagnostics.map(\.id) == [.currencyMismatch])
    let folded = Self.load(text, rates: Self.rates)
    #expect(!folded.hasErrors)
    #expect(folded.policy?.checked.rules.first?.condition.constantValue == .boolean(true))
    let partial = CurrencyRates(["USD": 1])
    #expect(Self.load(text, rates: partial).diagnostics.map(\.id) == [.currencyMismatch])
  }

  @Test(
    arguments: [
      (1_000, "EUR", "USD", 1_200), (1_200, "USD", "EUR", 1_000), (5, "USD", "USD", 5),
    ] as [(Int64, String, String, Int64)])
  func conversionRoundsToTheThousandth(milli: Int64, from: String, to: String, expected: Int64) {
    #expect(Self.rates.convert(milli, from: from, to: to) == expected)
    #expect(Self.rates.convert(milli, from: "JPY", to: to) == nil)
  }
}
