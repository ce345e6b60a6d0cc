import Testing

@testable import ReckonPolicy

/// Shapes tell repeated conditions apart from different ones: the lints and the analysis find
/// shadowed rules by them, so two conditions must share a shape exactly when they compute the
/// same thing, whatever their constants spell.
struct ConditionShapeTests {
  static let alike: [(String, String)] = [
    ("reason == OTHER", "reason   ==   OTHER"),
    ("product.id == \"com.example.a\"", "(product.id == \"com.example.a\")"),
    ("purchase.price > 10 USD", "purchase.price > 10.00 USD"),
    ("usage.consumed >= 50%", "usage.consumed >= 50.0%"),
    ("reason in [OTHER, LEGAL]", "reason in [OTHER,LEGAL]"),
  ]

  static let different: [(String, String)] = [
    ("product.id == \"a\"", "product.id == \"b\""),
    ("product.id == \"a\"", "product.id == \"a \""),
    ("product.id == \"a),c(b\"", "product.id == \"a\""),
    ("product.id in [\"a\", \"b\"]", "product.id in [\"a,b\"]"),
    ("product.id in [\"a:1\", \"b\"]", "product.id in [\"a\", \"1:b\"]"),
    ("purchase.price > 10 USD", "purchase.price > 10 EUR"),
    ("purchase.price > 10 USD", "purchase.price > 10.001 USD"),
    ("usage.consumed >= 50%", "usage.consumed >= 51%"),
    ("reason == OTHER", "reason == LEGAL"),
    ("reason in [OTHER, LEGAL]", "reason not in [OTHER, LEGAL]"),
    ("customer.consented == true", "customer.consented == false"),
    ("customer.refunds_last_90_days > 1", "customer.refunds_last_90_days >= 1"),
    ("customer.account_age > 1 day", "customer.account_age > 2 days"),
  ]

  @Test(arguments: alike)
  func conditionsThatComputeTheSameShareAShape(_ first: String, _ second: String) throws {
    #expect(try shape(first) == shape(second))
  }

  @Test(arguments: different)
  func conditionsThatDifferHaveDifferentShapes(_ first: String, _ second: String) throws {
    #expect(try shape(first) != shape(second))
  }

  /// Where the shared condition sits in each rule does not matter: shadowing is found whichever
  /// condition many earlier rules repeat and whichever the shadowing rule shares.
  @Test(arguments: [false, true])
  func aRuleIsFoundShadowedWhicheverOfItsConditionsEarlierRulesRepeat(_ sharedFirst: Bool) {
    var lines: [String] = []
    for sku in 0..<20 {
      let own = "product.id == \"sku\(sku)\""
      let shared = "reason in [UNINTENDED_PURCHASE, OTHER]"
      let condition = sharedFirst ? "\(shared) and \(own)" : "\(own) and \(shared)"
      lines.append("rule \"sku \(sku)\" when \(condition) then refund DECLINE")
    }
    lines.append(
      "rule \"late\" when usage.consumed > 5% and product.id == \"sku7\" "
        + "and reason in [UNINTENDED_PURCHASE, OTHER] then refund GRANT_FULL")
    let result = TestSchema.load(lines.joined(separator: "\n"))
    let shadowed = result.diagnostics.filter { $0.id == .shadowedRule }
    #expect(shadowed.map { result.source.text(of: $0.span) } == ["\"late\""])
    #expect(shadowed.first?.message.contains("'sku 7'") == true)
  }

  private func shape(_ condition: String) throws -> ResolvedExpression.Shape {
    try TestSchema.checkedCondition(condition).shape
  }
}
