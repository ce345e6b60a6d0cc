import Testing

@testable import ReckonPolicy

struct EvaluatorTests {
  static let policy = """
    rule "failed" when delivery.status != DELIVERED then refund GRANT_FULL
    rule "legal" when reason == LEGAL then refund DECLINE, hold for review
    rule "also legal" when reason in [LEGAL, OTHER] then do not respond
    otherwise share data only
    """

  @Test func theFirstMatchingRuleDecides() throws {
    let policy = try TestSchema.compile(Self.policy)
    let facts = try TestSchema.baseFacts([
      "reason": TestSchema.enumValue(TestSchema.reason, "LEGAL")
    ])
    let decision = policy.evaluate(facts)
    #expect(decision.rule == 1)
    #expect(decision.actions == [.choose(ordinal: 0, name: "DECLINE"), .holdForReview])
    #expect(policy.ruleName(decision.rule) == "legal")
    #expect(decision.trace == nil)
  }

  @Test func otherwiseDecidesWhenNoRuleMatches() throws {
    let policy = try TestSchema.compile(Self.policy)
    let facts = try TestSchema.baseFacts([
      "reason": TestSchema.enumValue(TestSchema.reason, "FULFILLMENT_ISSUE")
    ])
    let decision = policy.evaluate(facts)
    #expect(decision.rule == nil)
    #expect(decision.actions == [.replyWithoutChoice])
    #expect(policy.ruleName(nil) == "otherwise")
  }

  @Test func withoutOtherwiseTheAnswerIsShareDataOnly() throws {
    let policy = try TestSchema.compile("rule \"legal\" when reason == LEGAL then refund DECLINE")
    let decision = policy.evaluate(try TestSchema.baseFacts())
    #expect(decision.rule == nil)
    #expect(decision.actions == [.replyWithoutChoice])
    #expect(policy.checked.otherwiseSpan == nil)
  }

  /// An empty file used to load and share data only for every request; it is now refused, as
  /// almost surely the wrong or an unfinished file (an explicit `otherwise` still loads).
  @Test(arguments: ["# nothing yet\n", "policy \"p\"\nversion 3\ndescription \"d\""])
  func aPolicyWithoutRulesOrOtherwiseDoesNotLoad(_ text: String) throws {
    let result = TestSchema.load(text)
    #expect(result.policy == nil)
    #expect(result.diagnostics.map(\.id) == [.emptyPolicy])
    #expect(result.diagnostics.first?.span == SourceSpan(start: 0, end: 0))
  }

  /// A file of holds alone is written on purpose: it answers as `otherwise share data only`
  /// does, holding the requests its holds name.
  @Test func aPolicyOfHoldsAloneSharesDataOnlyAndHolds() throws {
    let policy = try TestSchema.compile("hold \"legal\" when reason == LEGAL\n")
    let legal = policy.evaluate(try TestSchema.baseFacts(["reason": .enumeration(2)]))
    #expect(legal.actions == [.replyWithoutChoice, .holdForReview])
    #expect(legal.hold == 0)
    let other = policy.evaluate(try TestSchema.baseFacts(["reason": .enumeration(3)]))
    #expect(other.actions == [.replyWithoutChoice])
    #expect(other.hold == nil)
  }

  @Test func aPolicyWithOnlyOtherwiseSharesDataOnlyAndIsNamedAfterItsFile() throws {
    let policy = try TestSchema.compile("# nothing yet\notherwise share data only\n")
    #expect(policy.evaluate(policy.makeFacts()).actions == [.replyWithoutChoice])
    #expect(policy.checked.name == "test")
  }

  @Test func headersAreKeptOnTheCheckedPolicy() throws {
    let policy = try TestSchema.compile(
      "policy \"p\"\nversion 3\ndescription \"d\"\notherwise share data only")
    #expect(policy.checked.name == "p")
    #expect(policy.checked.version == "3")
    #expect(policy.checked.summary == "d")
  }

  @Test func setValuesAreComputedFromFacts() throws {
    let policy = try TestSchema.compile(
      """
      rule "r" when true then refund GRANT_PRORATED, set consumptionPercentage = usage.consumed / 2,
        set sampleContentProvided = customer.refunds_last_90_days > 2, set deliveryStatus = UNDELIVERED_OTHER
      """)
    let decision = policy.evaluate(try TestSchema.baseFacts(["usage.consumed": .percent(60)]))
    let schema = TestSchema.schema
    #expect(
      decision.actions == [
        .choose(ordinal: 2, name: "GRANT_PRORATED"),
        .set(field: schema.settableField(named: "consumptionPercentage")!, value: .percent(30)),
        .set(field: schema.settableField(named: "sampleContentProvided")!, value: .boolean(false)),
        .set(
          field: schema.settableField(named: "deliveryStatus")!,
          value: TestSchema.enumValue(TestSchema.delivery, "UNDELIVERED_OTHER")),
      ])
  }

  @Test func aSetValueThatReadsAMissingFactIsNil() throws {
    let policy = try TestSchema.compile(
      "rule \"r\" when true then refund DECLINE, set sampleContentProvided = purchase.price > 1 USD"
    )
    let decision = policy.evaluate(try TestSchema.baseFacts())
    #expect(
      decision.actions.last
        == .set(field: TestSchema.schema.settableField(named: "sampleContentProvided")!, value: nil)
    )
  }

  @Test func letsAreComputedLazilyAndOnce() throws {
    let policy = try TestSchema.compile(
      """
      let old = now - purchase.date > 5 days
      let legal = reason == LEGAL
      rule "a" when legal and old then refund DECLINE
      rule "b" when old and reason == LEGAL then refund GRANT_FULL
      rule "c" when old and customer.consented then do not respond
      """)
    let decision = policy.evaluate(try TestSchema.baseFacts(), trace: true)
    #expect(decision.rule == 2)
    let trace = try #require(decision.trace)
    let oldCondition = policy.checked.lets[0].value.id
    let computedOld = trace.attempts.flatMap(\.conditions).filter { $0.node == oldCondition }
    #expect(computedOld.count == 1)
    let slots = TestSchema.schema
    #expect(
      trace.factsRead
        == ["reason", "now", "purchase.date", "customer.consented"].map { slots.slot(ofFact: $0)! })
  }

  @Test func anUnusedLetIsNeverComputed() throws {
    let policy = try TestSchema.compile(
      "let price = purchase.price\nrule \"a\" when reason == OTHER then refund DECLINE")
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    #expect(trace.factsRead == [TestSchema.schema.slot(ofFact: "reason")!])
    #expect(trace.missingFacts.isEmpty)
  }
}
