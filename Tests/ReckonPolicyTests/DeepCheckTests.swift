import ReckonPolicy
import Testing

/// The deeper checks: contradictions, rules covered by earlier ones, refunds for product types
/// earlier rules took out of play, and percent conditions that never change. Each fires on the
/// case it is about and stays quiet on its near miss.
struct DeepCheckTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let rules: String
    /// The id expected, or nil when the policy must draw no deeper-check warning.
    let id: DiagnosticID?
    /// Text the warning's caret must underline.
    let underlined: String?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "two enum values at once never match",
      rules:
        #"rule "x" when product.type == CONSUMABLE and product.type == AUTO_RENEWABLE then refund DECLINE"#,
      id: .neverMatches, underlined: "product.type == CONSUMABLE and product.type == AUTO_RENEWABLE"
    ),
    Case(
      name: "an enum value and its exclusion never match",
      rules:
        #"rule "x" when reason in [LEGAL, OTHER] and reason not in [OTHER, LEGAL] then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "disjoint numeric ranges never match",
      rules: #"rule "x" when usage.consumed > 80% and usage.consumed < 50% then refund DECLINE"#,
      id: .neverMatches, underlined: "usage.consumed > 80% and usage.consumed < 50%"),
    Case(
      name: "a missing money fact compared never matches",
      rules:
        #"rule "x" when purchase.price is missing and purchase.price > 5 USD then refund DECLINE"#,
      id: .neverMatches, underlined: "purchase.price is missing and purchase.price > 5 USD"),
    Case(
      name: "a missing duration fact compared never matches",
      rules:
        #"rule "x" when customer.account_age is missing and customer.account_age > 30 days then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "a missing percent fact compared never matches",
      rules:
        #"rule "x" when usage.consumed is missing and usage.consumed > 30% then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "disjoint money ranges never match",
      rules:
        #"rule "x" when purchase.price > 5 USD and purchase.price < 2 USD then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "money in two currencies never matches",
      rules:
        #"rule "x" when purchase.price > 5 USD and purchase.price < 9 EUR then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "overlapping money ranges are fine",
      rules:
        #"rule "x" when purchase.price > 5 USD and purchase.price < 9 USD then refund DECLINE"#,
      id: nil, underlined: nil),
    Case(
      name: "a narrower money range after a wider one is covered",
      rules: "rule \"a\" when purchase.price > 3 USD then refund DECLINE\n"
        + "rule \"b\" when purchase.price > 5 USD and reason != LEGAL then refund DECLINE",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "a money range in another currency is not covered",
      rules: "rule \"a\" when purchase.price > 3 EUR then refund DECLINE\n"
        + "rule \"b\" when purchase.price > 5 USD and reason != LEGAL then refund DECLINE",
      id: nil, underlined: nil),
    Case(
      name: "contradiction through lets",
      rules: "let used = usage.consumed\nlet light = used < 10%\n"
        + #"rule "x" when light and used >= 10% then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "overlapping ranges are fine",
      rules:
        #"rule "x" when usage.consumed > 20% and usage.consumed < 50% then refund GRANT_PRORATED"#,
      id: nil, underlined: nil),
    Case(
      name: "touching closed bounds are fine",
      rules: #"rule "x" when usage.consumed >= 50% and usage.consumed <= 50% then refund DECLINE"#,
      id: nil, underlined: nil),
    Case(
      name: "a narrower range after a wider one is covered",
      rules: "rule \"heavy\" when usage.consumed >= 80% then refund DECLINE\n"
        + "rule \"very heavy\" when usage.consumed >= 95% and reason != LEGAL then refund DECLINE",
      id: .shadowedRule, underlined: "\"very heavy\""),
    Case(
      name: "an enum subset after its superset is covered",
      rules: "rule \"a\" when reason in [LEGAL, OTHER, FULFILLMENT_ISSUE] then refund DECLINE\n"
        + "rule \"b\" when reason == OTHER and customer.refunds_last_90_days > 2 then refund DECLINE",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "a wider range after a narrower one is not covered",
      rules: "rule \"very heavy\" when usage.consumed >= 95% then refund DECLINE\n"
        + "rule \"heavy\" when usage.consumed >= 80% then refund DECLINE",
      id: nil, underlined: nil),
    Case(
      name: "a rule that may see the fact missing is not covered",
      rules:
        "rule \"a\" when purchase.price is not missing and purchase.price > 1 USD then refund DECLINE\n"
        + "rule \"b\" when purchase.price is not missing then refund DECLINE",
      id: nil, underlined: nil),
    Case(
      name: "a refund for a product type taken out earlier",
      rules: "rule \"no subscriptions\" when product.type == AUTO_RENEWABLE then share data only\n"
        + "rule \"non-consumables\" when product.type == NON_CONSUMABLE then do not respond\n"
        + "rule \"refund them\" when product.type in [AUTO_RENEWABLE, NON_CONSUMABLE] and reason == LEGAL then refund GRANT_FULL",
      id: .refundForExcludedProduct, underlined: "\"refund them\""),
    Case(
      name: "a refund for a product type still in play",
      rules: "rule \"no subscriptions\" when product.type == AUTO_RENEWABLE then share data only\n"
        + "rule \"refund consumables\" when product.type == CONSUMABLE and reason == LEGAL then refund GRANT_FULL",
      id: nil, underlined: nil),
    Case(
      name: "a product type rule with an arithmetic condition does not take the type out",
      rules: "rule \"consumables bought today\"\n"
        + "  when product.type == CONSUMABLE and now - purchase.date < 1 day\n"
        + "  then refund DECLINE\n"
        + "rule \"accidental consumables\"\n"
        + "  when product.type == CONSUMABLE and reason == UNINTENDED_PURCHASE\n"
        + "  then refund GRANT_FULL",
      id: nil, underlined: nil),
    Case(
      name: "a product type rule with a starts-with condition does not take the type out",
      rules:
        "rule \"coin packs\" when product.type == CONSUMABLE and product.id starts with \"coins.\" "
        + "then refund DECLINE\n"
        + "rule \"accidental\" when product.type == CONSUMABLE and reason == UNINTENDED_PURCHASE "
        + "then refund GRANT_FULL",
      id: nil, underlined: nil),
    Case(
      name: "a rule with an unreadable condition does not cover a narrower one",
      rules: "rule \"recent\" when usage.consumed >= 80% and now - purchase.date < 1 day "
        + "then refund DECLINE\n"
        + "rule \"very heavy\" when usage.consumed >= 95% then refund DECLINE",
      id: nil, underlined: nil),
    Case(
      name: "a rule with an unreadable condition is still covered by a plain earlier one",
      rules: "rule \"heavy\" when usage.consumed >= 80% then refund DECLINE\n"
        + "rule \"very heavy, recent\" when usage.consumed >= 95% and now - purchase.date < 1 day "
        + "then refund GRANT_FULL",
      id: .shadowedRule, underlined: "\"very heavy, recent\""),
    Case(
      name: "a percentage set for subscriptions only",
      rules:
        #"rule "s" when product.type == AUTO_RENEWABLE then refund DECLINE, set consumptionPercentage = 50%"#,
      id: .percentageAppleRefuses, underlined: "50%"),
    Case(
      name: "a percentage set for delivered consumables",
      rules:
        #"rule "s" when product.type == CONSUMABLE and delivery.status == DELIVERED then refund DECLINE, set consumptionPercentage = 50%"#,
      id: nil, underlined: nil),
    Case(
      name: "at least 0% is always true",
      rules: #"rule "x" when usage.consumed >= 0% and reason == LEGAL then refund DECLINE"#,
      id: .constantPercentCondition, underlined: "usage.consumed >= 0%"),
    Case(
      name: "at most 100% is always true",
      rules: #"rule "x" when usage.consumed <= 100% and reason == LEGAL then refund DECLINE"#,
      id: .constantPercentCondition, underlined: "usage.consumed <= 100%"),
    Case(
      name: "below 0% is never true",
      rules: #"rule "x" when usage.consumed < 0% then refund DECLINE"#,
      id: .constantPercentCondition, underlined: "usage.consumed < 0%"),
    Case(
      name: "at least 100% is a real bound",
      rules: #"rule "x" when usage.consumed >= 100% then refund DECLINE"#, id: nil, underlined: nil),
    Case(
      name: "above 0% is a real bound",
      rules:
        #"rule "x" when usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED"#,
      id: nil, underlined: nil),
    Case(
      name: "an empty list never matches",
      rules: #"rule "x" when reason in [] then refund DECLINE"#,
      id: .neverMatches, underlined: "reason in []"),
    Case(
      name: "an empty numeric list never matches",
      rules: #"rule "x" when customer.refunds_last_90_days in [] then refund DECLINE"#,
      id: .neverMatches, underlined: "customer.refunds_last_90_days in []"),
    Case(
      name: "a numeric list outside a range never matches",
      rules:
        #"rule "x" when usage.consumed in [10%, 20%] and usage.consumed > 50% then refund DECLINE"#,
      id: .neverMatches, underlined: "usage.consumed in [10%, 20%] and usage.consumed > 50%"),
    Case(
      name: "a numeric list and its exclusion never match",
      rules:
        #"rule "x" when usage.consumed in [10%, 20%] and usage.consumed not in [20%, 10%] then refund DECLINE"#,
      id: .neverMatches, underlined: nil),
    Case(
      name: "a numeric list meeting a range is fine",
      rules:
        #"rule "x" when usage.consumed in [10%, 60%] and usage.consumed > 50% then refund DECLINE"#,
      id: nil, underlined: nil),
    Case(
      name: "a value of an earlier numeric list is covered",
      rules: "rule \"a\" when usage.consumed in [10%, 20%] then refund DECLINE\n"
        + "rule \"b\" when usage.consumed == 10% then refund GRANT_FULL",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "a shorter numeric list after a longer one is covered",
      rules: "rule \"a\" when customer.refunds_last_90_days in [1, 2, 3] then refund DECLINE\n"
        + "rule \"b\" when customer.refunds_last_90_days in [3, 1] then refund GRANT_FULL",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "a numeric list inside an earlier range is covered",
      rules: "rule \"a\" when usage.consumed >= 50% then refund DECLINE\n"
        + "rule \"b\" when usage.consumed in [60%, 70%] then refund GRANT_FULL",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "a longer numeric list after a shorter one is not covered",
      rules: "rule \"a\" when usage.consumed == 10% then refund DECLINE\n"
        + "rule \"b\" when usage.consumed in [10%, 20%] then refund GRANT_FULL",
      id: nil, underlined: nil),
    Case(
      name: "exclusions after a not-in list of them are covered",
      rules: "rule \"a\" when usage.consumed not in [10%, 30%] then refund DECLINE\n"
        + "rule \"b\" when usage.consumed != 10% and usage.consumed != 30% then refund GRANT_FULL",
      id: .shadowedRule, underlined: "\"b\""),
    Case(
      name: "amounts of an earlier list in another currency are not covered",
      rules: "rule \"a\" when purchase.price in [1 USD, 2 USD] then refund DECLINE\n"
        + "rule \"b\" when purchase.price == 1 EUR then refund GRANT_FULL",
      id: nil, underlined: nil),
  ]

  static let deeperIDs: Set<DiagnosticID> = [
    .neverMatches, .shadowedRule, .refundForExcludedProduct, .constantPercentCondition,
    .percentageAppleRefuses,
  ]

  @Test(arguments: cases)
  func warnsExactlyWhenItShould(_ example: Case) throws {
    let result = TestSchema.load(example.rules + "\n")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    let deeper = result.diagnostics.filter { Self.deeperIDs.contains($0.id) }
    guard let id = example.id else {
      #expect(deeper.isEmpty, "\(result.renderedDiagnostics())")
      return
    }
    let warning = try #require(deeper.first { $0.id == id }, "\(result.renderedDiagnostics())")
    #expect(warning.severity == .warning)
    #expect(warning.hint != nil)
    if let underlined = example.underlined {
      #expect(result.source.text(of: warning.span) == underlined)
    }
  }

  @Test func aContradictionIsReportedOnceWithCaretAndHint() throws {
    let result = TestSchema.load(
      "rule \"x\"\n  when usage.consumed > 80% and usage.consumed < 50%\n  then refund DECLINE\n",
      path: "d.policy")
    #expect(
      result.renderedDiagnostics() == """
        d.policy:2:8: warning[P0502]: rule 'x' can never match: 'usage.consumed > 80%' and 'usage.consumed < 50%' cannot all hold at once
            2 |   when usage.consumed > 80% and usage.consumed < 50%
              |        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
              = one of these conditions is not what was meant; fix it, or remove the rule

        """)
  }
}
