import Testing

@testable import ReckonPolicy

/// Arithmetic and built-ins at run time, on facts, for every pair of types that type-checks.
struct EvaluationArithmeticTests {
  struct ArithmeticCase: CustomTestStringConvertible, Sendable {
    let expression: String
    let field: String
    let expected: Value?
    var testDescription: String { expression }
  }

  /// Each expression goes in a `let` and is compared by a rule, so nothing is folded away.
  static let cases: [ArithmeticCase] = [
    ArithmeticCase(
      expression: "customer.refunds_last_90_days + 2", field: "number", expected: .number(5)),
    ArithmeticCase(
      expression: "customer.refunds_last_90_days - 5", field: "number", expected: .number(-2)),
    ArithmeticCase(
      expression: "customer.refunds_last_90_days * 2", field: "number", expected: .number(6)),
    ArithmeticCase(
      expression: "customer.refunds_last_90_days / 2", field: "number", expected: .number(1.5)),
    ArithmeticCase(
      expression: "-customer.refunds_last_90_days", field: "number", expected: .number(-3)),
    ArithmeticCase(expression: "usage.consumed + 10%", field: "percent", expected: .percent(50)),
    ArithmeticCase(expression: "usage.consumed - 10%", field: "percent", expected: .percent(30)),
    ArithmeticCase(expression: "usage.consumed * 2", field: "percent", expected: .percent(80)),
    ArithmeticCase(expression: "2 * usage.consumed", field: "percent", expected: .percent(80)),
    ArithmeticCase(expression: "usage.consumed / 4", field: "percent", expected: .percent(10)),
    ArithmeticCase(expression: "usage.consumed / 80%", field: "number", expected: .number(0.5)),
    ArithmeticCase(
      expression: "purchase.price + 1 USD", field: "money", expected: .money(5_990, currency: "USD")
    ),
    ArithmeticCase(
      expression: "purchase.price - 5 USD", field: "money", expected: .money(-10, currency: "USD")),
    ArithmeticCase(
      expression: "purchase.price * 2", field: "money", expected: .money(9_980, currency: "USD")),
    ArithmeticCase(
      expression: "3 * purchase.price", field: "money", expected: .money(14_970, currency: "USD")),
    ArithmeticCase(
      expression: "purchase.price / 2", field: "money", expected: .money(2_495, currency: "USD")),
    ArithmeticCase(
      expression: "purchase.price * 50%", field: "money", expected: .money(2_495, currency: "USD")),
    ArithmeticCase(
      expression: "10% * purchase.price", field: "money", expected: .money(499, currency: "USD")),
    ArithmeticCase(expression: "purchase.price / 2.495 USD", field: "number", expected: .number(2)),
    ArithmeticCase(
      expression: "customer.account_age + 1 day", field: "duration",
      expected: .duration(11 * 86_400)),
    ArithmeticCase(
      expression: "customer.account_age - 1 day", field: "duration", expected: .duration(9 * 86_400)
    ),
    ArithmeticCase(
      expression: "customer.account_age * 2", field: "duration", expected: .duration(20 * 86_400)),
    ArithmeticCase(
      expression: "customer.account_age / 2", field: "duration", expected: .duration(5 * 86_400)),
    ArithmeticCase(
      expression: "customer.account_age / 1 day", field: "number", expected: .number(10)),
    ArithmeticCase(
      expression: "now - purchase.date", field: "duration", expected: .duration(10 * 86_400)),
    ArithmeticCase(
      expression: "purchase.date + 10 days", field: "timestamp", expected: .timestamp(1_700_000_000)
    ),
    ArithmeticCase(
      expression: "1 day + purchase.date", field: "timestamp", expected: .timestamp(1_699_222_400)),
    ArithmeticCase(
      expression: "now - 10 days", field: "timestamp", expected: .timestamp(1_699_136_000)),
    ArithmeticCase(
      expression: "min(usage.consumed, 30%, 50%)", field: "percent", expected: .percent(30)),
    ArithmeticCase(
      expression: "max(usage.consumed, 30%)", field: "percent", expected: .percent(40)),
    ArithmeticCase(
      expression: "max(purchase.price, 1 USD)", field: "money",
      expected: .money(4_990, currency: "USD")),
    ArithmeticCase(
      expression: "min(now, purchase.date)", field: "timestamp", expected: .timestamp(1_699_136_000)
    ),
    ArithmeticCase(
      expression: "round(customer.refunds_last_90_days / 2)", field: "number", expected: .number(2)),
    ArithmeticCase(
      expression: "round(usage.consumed / 3)", field: "percent", expected: .percent(13)),
    ArithmeticCase(
      expression: "customer.refunds_last_90_days / (customer.refunds_last_90_days - 3)",
      field: "number", expected: nil),
    ArithmeticCase(
      expression: "purchase.price / (customer.refunds_last_90_days - 3)", field: "money",
      expected: nil),
    ArithmeticCase(
      expression: "usage.consumed / (usage.consumed - 40%)", field: "number", expected: nil),
    ArithmeticCase(
      expression: "customer.account_age / (customer.account_age - 10 days)", field: "number",
      expected: nil),
    ArithmeticCase(
      expression: "purchase.price / (purchase.price - 4.99 USD)", field: "number", expected: nil),
    ArithmeticCase(expression: "max(purchase.price, 1 EUR)", field: "money", expected: nil),
  ]

  static let facts: [String: Value] = [
    "customer.refunds_last_90_days": .number(3),
    "usage.consumed": .percent(40),
    "purchase.price": .money(4_990, currency: "USD"),
    "customer.account_age": .duration(10 * 86_400),
  ]

  @Test("arithmetic on facts gives the value the types promise", arguments: cases)
  func arithmetic(_ testCase: ArithmeticCase) throws {
    let valuePolicy = try TestSchema.compile(
      "let value = \(testCase.expression)\nrule \"r\" when value is not missing and value == value then refund DECLINE"
    )
    let decision = valuePolicy.evaluate(try TestSchema.baseFacts(Self.facts), trace: true)
    let trace = try #require(decision.trace)
    let reference = try #require(
      valuePolicy.checked.rules.first.flatMap { rule -> Int? in
        guard case .and(let left, _) = rule.condition.kind,
          case .missingTest(_, let subject) = left.kind
        else { return nil }
        return subject.id
      })
    let recorded = trace.attempts.flatMap(\.conditions).first { $0.node == reference }
    #expect(recorded?.value == testCase.expected)
    #expect(valuePolicy.checked.lets[0].value.type.description == testCase.field)
    #expect(decision.rule == (testCase.expected == nil ? nil : 0))
  }

  /// A product owner reads numbers and percents as decimals; binary floating point made
  /// `33.3% * 3` 99.89999999999999%, below 99.9%. Arithmetic keeps full precision, so
  /// `x / 3 * 3` is still `x`.
  static let decimalComparisons: [(condition: String, consumed: Double)] = [
    ("usage.consumed * 3 == 99.9%", 33.3), ("usage.consumed * 3 >= 99.9%", 33.3),
    ("usage.consumed + 0.2% == 0.3%", 0.1), ("usage.consumed - 0.3% < 0%", 0.1),
    ("usage.consumed / 3 * 3 == usage.consumed", 1), ("usage.consumed / 3 * 3 == 1%", 1),
    ("usage.consumed == 33.3%", 100.0 * 333 / 1_000),
    ("usage.consumed <= 33.3%", 33.300_000_000_000_004),
    ("customer.account_age + 0.1 days == 1.1 days", 0),
  ]

  @Test(arguments: decimalComparisons)
  func comparisonsReadAsDecimal(_ condition: String, _ consumed: Double) throws {
    let policy = try TestSchema.compile("rule \"r\" when \(condition) then refund DECLINE")
    let facts = try TestSchema.baseFacts([
      "usage.consumed": .percent(consumed), "customer.account_age": .duration(86_400),
    ])
    #expect(policy.evaluate(facts, trace: false).rule == 0)
  }

  /// Close values that differ as decimals still differ.
  @Test(arguments: ["usage.consumed == 33.3%", "usage.consumed > 33.3%"])
  func valuesApartInTheFifteenthDigitStayApart(_ condition: String) throws {
    let policy = try TestSchema.compile("rule \"r\" when \(condition) then refund DECLINE")
    let facts = try TestSchema.baseFacts(["usage.consumed": .percent(33.300_000_000_001)])
    let matches = policy.evaluate(facts, trace: false).rule == 0
    #expect(matches == (condition.contains(">")))
  }

  static let roundings: [(computed: Double, expected: Double)] = [
    (0.1 + 0.2, 0.3), (33.3 * 3, 99.9), (1.0 / 3, 0.333_333_333_333_333), (1e20 + 1, 1e20),
    (Double.leastNormalMagnitude / 1_000, Double.leastNormalMagnitude / 1_000),
    (-2.675 * 10, -26.75), (123_456_789.123_456_78, 123_456_789.123_457),
  ]

  @Test(arguments: roundings)
  func decimalsKeepFifteenSignificantDigits(_ computed: Double, _ expected: Double) {
    #expect(ValueOperations.decimal(computed) == expected)
  }

  @Test func moneyInTwoCurrenciesComparesAsUnknown() throws {
    let policy = try TestSchema.compile(
      """
      rule "eq" when purchase.price == 4.99 USD then refund DECLINE
      rule "ne" when purchase.price != 4.99 USD then refund DECLINE
      rule "lt" when purchase.price < 10 USD then refund DECLINE
      rule "in" when purchase.price in [4.99 USD] then refund DECLINE
      rule "not in" when purchase.price not in [4.99 USD] then refund DECLINE
      rule "sum" when purchase.price + 1 USD > 0 USD then refund DECLINE
      """)
    let facts = try TestSchema.baseFacts(["purchase.price": .money(4_990, currency: "EUR")])
    let trace = try #require(policy.evaluate(facts, trace: true).trace)
    #expect(trace.attempts.map(\.result) == [nil, nil, nil, nil, nil, nil])
  }

  @Test func timeSincePurchaseComparesWithADuration() throws {
    let policy = try TestSchema.compile(
      "rule \"old\" when now - purchase.date > 30 days then refund DECLINE")
    let recent = try TestSchema.baseFacts()
    let old = try TestSchema.baseFacts(["purchase.date": .timestamp(1_700_000_000 - 31 * 86_400)])
    #expect(policy.evaluate(recent).rule == nil)
    #expect(policy.evaluate(old).rule == 0)
  }

  /// The time between two times of this century is counted in whole microseconds: 700 ms
  /// apart is 0.7 seconds, not the 0.7000000476837158 their doubles give, so a boundary holds.
  @Test(arguments: [0.7, 0.1, 0.001, 1.5])
  func theTimeBetweenTwoTimesIsExactToTheMicrosecond(_ seconds: Double) throws {
    let policy = try TestSchema.compile(
      "rule \"in time\" when now - purchase.date <= \(seconds) seconds then refund DECLINE")
    let now = 1_772_359_200.0 + seconds
    let facts = try TestSchema.baseFacts([
      "now": .timestamp(now), "purchase.date": .timestamp(1_772_359_200),
    ])
    #expect(policy.evaluate(facts).rule == 0)
    #expect(
      ValueOperations.arithmetic(.subtract, .timestamp(now), .timestamp(1_772_359_200))
        == .duration(seconds))
  }

  @Test func textOperatorsMatchPrefixSuffixAndSubstring() throws {
    let policy = try TestSchema.compile(
      """
      rule "a" when product.id starts with "com.example" and product.id ends with ".coins" and product.id contains "ample.co"
        then refund DECLINE
      """)
    #expect(policy.evaluate(try TestSchema.baseFacts()).rule == 0)
    #expect(
      policy.evaluate(try TestSchema.baseFacts(["product.id": .text("org.example.coins")])).rule
        == nil)
  }

  @Test func overflowingMoneyIsUnknownNotACrash() throws {
    let policy = try TestSchema.compile(
      "rule \"r\" when purchase.price * 1000000000 > 1 USD or purchase.price + purchase.price > 1 USD then refund DECLINE"
    )
    let facts = try TestSchema.baseFacts(["purchase.price": .money(.max - 1, currency: "USD")])
    let trace = try #require(policy.evaluate(facts, trace: true).trace)
    #expect(trace.attempts.first?.result == nil)
  }
}
