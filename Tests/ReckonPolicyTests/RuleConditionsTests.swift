import ReckonTestSupport
import Testing

@testable import ReckonPolicy

/// Rules whose parts test one fact in place decide, and trace, exactly as the same conditions
/// compiled whole into closures do.
struct RuleConditionsTests {
  static let text = """
    let used = usage.consumed
    let gave = customer.consented
    let heavy = used >= 80%
    rule "override" when customer.override is not missing and customer.override == GRANT_FULL
      then refund GRANT_FULL
    rule "flag" when customer.consented and gave is missing then refund DECLINE
    rule "boolean missing" when customer.consented is not missing and not customer.consented
      then refund DECLINE
    rule "members" when reason in [LEGAL, OTHER] and product.type not in [CONSUMABLE]
      then refund GRANT_FULL
    rule "numbers" when used > 0% and usage.consumed < 100% and customer.refunds_last_90_days >= 2
      and customer.account_age <= 30 days and usage.last_used < now
      then refund GRANT_PRORATED
    rule "nested" when delivery.status != DELIVERED and (reason == LEGAL and heavy)
      then refund DECLINE
    rule "or" when heavy or purchase.price > 10 USD then refund DECLINE
    rule "alone" when heavy then refund DECLINE
    rule "inside or" when (used < 5% or reason in [LEGAL]) and not (gave is missing)
      then refund GRANT_FULL
    """

  /// The policy's rules as whole compiled conditions, tried one after another.
  static func reference(
    _ policy: CompiledPolicy, _ facts: FactValues, traced: Bool
  ) -> (rule: Int?, trace: PolicyTrace?) {
    var compiler = PolicyCompiler(policy: policy.checked, tracing: traced)
    compiler.testsFactsInPlace = false
    let program = compiler.compileProgram()
    let conditions = policy.checked.rules.map { compiler.compile($0.condition) }
    let recorder =
      traced
      ? TraceRecorder(factCount: facts.values.count, rules: conditions.count, expected: 0) : nil
    return policy.withFrame(facts.values, program, recorder) { frame in
      var decided: Int?
      for (index, condition) in conditions.enumerated() {
        frame.recorder?.beginRule(index)
        let result = condition(&frame)
        frame.recorder?.endRule(result)
        if case .boolean(true) = result {
          decided = index
          break
        }
      }
      return (decided, frame.recorder?.finish())
    }
  }

  static func shown(_ trace: PolicyTrace) -> [String] {
    trace.attempts.map { attempt in
      "\(attempt.rule) \(String(describing: attempt.result)): "
        + attempt.conditions.map { "\($0.node)=\(String(describing: $0.value))" }.joined(
          separator: " ")
    }
  }

  @Test func partsTestedInPlaceDecideAndTraceAsCompiledConditionsDo() throws {
    let policy = try TestSchema.compile(Self.text)
    var random = SplitMix64(seed: 7)
    var decidedBy = Set<Int?>()
    for _ in 0..<3_000 {
      var facts = policy.makeFacts()
      for (slot, fact) in TestSchema.schema.facts.enumerated() {
        facts.set(slot: slot, to: RobustnessTests.randomValue(of: fact.type, &random))
      }
      let plain = policy.evaluate(facts)
      let traced = policy.evaluate(facts, trace: true)
      #expect(plain.rule == Self.reference(policy, facts, traced: false).rule)
      let expected = try #require(Self.reference(policy, facts, traced: true).trace)
      let trace = try #require(traced.trace)
      #expect(traced.rule == plain.rule)
      // Compared as text: a NaN the facts hold is not equal to itself.
      #expect(Self.shown(trace) == Self.shown(expected))
      #expect(trace.factsRead == expected.factsRead)
      #expect(trace.missingFacts == expected.missingFacts)
      decidedBy.insert(plain.rule)
    }
    // The facts reach most rules, and `otherwise`.
    #expect(decidedBy.count >= 6)
    #expect(decidedBy.contains(nil))
  }

  @Test func factTestsInsideLetsSetsAndHoldsTraceAsSeparateNodesDo() throws {
    let text = """
      let used = usage.consumed
      let heavy = used >= 80% or customer.override in [DECLINE]
      rule "heavy" when heavy or not (used < 10%)
        then refund DECLINE, set sampleContentProvided = customer.override is missing
      otherwise refund GRANT_FULL, set sampleContentProvided = used > 50%
      hold "new" when customer.refunds_last_90_days >= 1 and reason == LEGAL
      """
    let policy = try TestSchema.compile(text)
    let separate = PolicyCompiler.compile(policy.checked, testsFactsInPlace: false)
    var random = SplitMix64(seed: 11)
    for _ in 0..<1_000 {
      var facts = policy.makeFacts()
      for (slot, fact) in TestSchema.schema.facts.enumerated() {
        facts.set(slot: slot, to: RobustnessTests.randomValue(of: fact.type, &random))
      }
      let traced = policy.evaluate(facts, trace: true)
      let expected = separate.evaluate(facts, trace: true)
      let trace = try #require(traced.trace)
      let other = try #require(expected.trace)
      #expect(traced.rule == expected.rule)
      #expect(traced.hold == expected.hold)
      #expect(Self.shown(trace) == Self.shown(other))
      #expect("\(trace.actionValues)" == "\(other.actionValues)")
      #expect(
        trace.holds.map { "\($0.result.map { "\($0)" } ?? "nil") \(Array($0.conditions))" }
          == other.holds.map { "\($0.result.map { "\($0)" } ?? "nil") \(Array($0.conditions))" })
      #expect(trace.factsRead == other.factsRead)
      #expect(policy.evaluate(facts).rule == separate.evaluate(facts).rule)
    }
  }

  @Test(arguments: [
    ("customer.override is missing", true),
    ("reason == LEGAL", true),
    ("reason in [LEGAL]", true),
    ("usage.consumed > 1%", true),
    ("customer.consented", true),
    ("used > 1%", true),
    ("gave is missing", false),
    ("purchase.price > 1 USD", false),
    ("product.id == \"x\"", false),
    ("customer.consented == true", false),
  ])
  func aPartIsTestedInPlaceOnlyWhenItReadsOneFactAgainstConstants(
    condition: String, inPlace: Bool
  ) throws {
    let policy = try TestSchema.compile(
      "let used = usage.consumed\nlet gave = customer.consented\n"
        + "rule \"r\" when \(condition) then refund DECLINE")
    let checked = policy.checked
    #expect((FactTest(checked.rules[0].condition, lets: checked.lets) != nil) == inPlace)
  }
}
