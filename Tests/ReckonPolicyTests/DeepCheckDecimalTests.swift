import Testing

@testable import ReckonPolicy

/// The deeper checks read constants as the evaluator compares them, as decimals of 15
/// significant digits: `33.3% * 3` is 99.9%, not 99.89999999999999%. So they never warn that a
/// rule cannot decide when the evaluator lets it decide.
struct DeepCheckDecimalTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let rules: String
    let fact: String
    let value: Value
    /// The rule that decides for that fact value.
    let decider: Int
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a bound computed as 99.9% does not shadow a rule for 99.9%",
      rules: """
        rule "a" when usage.consumed > 33.3% * 3 then refund DECLINE
        rule "b" when usage.consumed >= 99.9% then refund GRANT_FULL
        """,
      fact: "usage.consumed", value: .percent(99.9), decider: 1),
    Case(
      name: "a range whose ends are one decimal is not empty",
      rules: """
        rule "a" when usage.consumed >= 99.9% and usage.consumed <= 33.3% * 3 then refund DECLINE
        """,
      fact: "usage.consumed", value: .percent(99.9), decider: 0),
    Case(
      name: "a number bound computed as 0.9 does not shadow a rule for 0.9",
      rules: """
        rule "a" when customer.refunds_last_90_days > 0.3 * 3 then refund DECLINE
        rule "b" when customer.refunds_last_90_days >= 0.9 then refund GRANT_FULL
        """,
      fact: "customer.refunds_last_90_days", value: .number(0.9), decider: 1),
    Case(
      name: "a duration bound computed as 99.9 seconds does not shadow a rule for 99.9 seconds",
      rules: """
        rule "a" when customer.account_age > 33.3 seconds * 3 then refund DECLINE
        rule "b" when customer.account_age >= 99.9 seconds then refund GRANT_FULL
        """,
      fact: "customer.account_age", value: .duration(99.9), decider: 1),
    Case(
      name: "a let computed as 0.3 does not shadow a rule equal to 0.3",
      rules: """
        let low = 0.1 + 0.2
        rule "a" when customer.refunds_last_90_days < low then refund DECLINE
        rule "b" when customer.refunds_last_90_days == 0.3 then refund GRANT_FULL
        """,
      fact: "customer.refunds_last_90_days", value: .number(0.3), decider: 1),
  ]

  @Test(arguments: cases)
  func noWarningThatARuleCannotDecideWhenItDecides(_ example: Case) throws {
    let result = TestSchema.load(example.rules + "\n")
    let wrong: Set<DiagnosticID> = [.neverMatches, .shadowedRule, .unreachableRule]
    #expect(
      !result.diagnostics.contains { wrong.contains($0.id) }, "\(result.renderedDiagnostics())")
    let policy = try TestSchema.compile(example.rules + "\n")
    let facts = try TestSchema.baseFacts([example.fact: example.value])
    #expect(policy.evaluate(facts, trace: false).rule == example.decider)
  }

  @Test func aRuleEqualToAComputedDecimalThatAnEarlierRuleExcludesNeverMatches() throws {
    let result = TestSchema.load(
      "rule \"a\" when usage.consumed != 33.3% * 3 and usage.consumed == 99.9% then refund DECLINE\n"
    )
    #expect(result.diagnostics.map(\.id).contains(.neverMatches))
  }
}
