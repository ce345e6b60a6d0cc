import Testing

@testable import ReckonPolicy

/// `hold "NAME" when CONDITION` holds whatever the rules decide, names itself, and never decides.
struct HoldClauseTests {
  static let policy = """
    hold "big purchases"
      when purchase.price > 50 USD

    rule "heavy use"
      when usage.consumed >= 80%
      then refund DECLINE

    rule "support says no"
      when customer.consented == false
      then do not respond

    otherwise refund GRANT_FULL

    hold "old accounts"
      when customer.account_age > 300 days
    """

  struct Case: Sendable, CustomTestStringConvertible {
    var consumed = 10.0, price = 30.0, ageDays = 10.0, consented = true
    var rule: Int?
    var hold: Int?
    var actions: [String]
    var testDescription: String {
      "\(rule.map(String.init) ?? "otherwise") held by \(hold.map(String.init) ?? "none")"
    }
  }

  static let cases = [
    Case(consumed: 90, rule: 0, actions: ["DECLINE"]),
    Case(consumed: 90, price: 90, rule: 0, hold: 0, actions: ["DECLINE", "hold"]),
    Case(ageDays: 400, hold: 1, actions: ["GRANT_FULL", "hold"]),
    Case(actions: ["GRANT_FULL"]),
    Case(price: 90, ageDays: 400, consented: false, rule: 1, actions: ["do not respond"]),
  ]

  @Test(arguments: cases)
  func aHoldHoldsWhateverTheRulesDecide(_ expected: Case) throws {
    let compiled = try TestSchema.compile(Self.policy)
    let facts = try TestSchema.baseFacts([
      "usage.consumed": .percent(expected.consumed),
      "purchase.price": .money(Int64(expected.price * 1_000), currency: "USD"),
      "customer.account_age": .duration(expected.ageDays * 86_400),
      "customer.consented": .boolean(expected.consented),
    ])
    for trace in [false, true] {
      let decision = compiled.evaluate(facts, trace: trace)
      #expect(decision.rule == expected.rule)
      #expect(decision.hold == expected.hold)
      let names = decision.actions.map { action -> String in
        switch action {
        case .choose(_, let name): name
        case .holdForReview: "hold"
        case .withholdReply: "do not respond"
        case .replyWithoutChoice: "data only"
        case .set: "set"
        }
      }
      #expect(names == expected.actions)
    }
  }

  @Test func theFirstHoldWhoseConditionIsTrueIsNamedAndTraced() throws {
    let compiled = try TestSchema.compile(Self.policy)
    let facts = try TestSchema.baseFacts([
      "usage.consumed": .percent(10), "purchase.price": .money(90_000, currency: "USD"),
      "customer.account_age": .duration(400 * 86_400),
    ])
    let decision = compiled.evaluate(facts, trace: true)
    #expect(decision.hold == 0)
    #expect(compiled.holdName(0) == "big purchases")
    let trace = try #require(decision.trace)
    #expect(trace.holds.map(\.hold) == [0])
    #expect(trace.holds.first?.result == true)
    #expect(trace.attempts.map(\.rule) == [0, 1])
    #expect(compiled.evaluate(facts, trace: false).hold == 0)
  }

  @Test func aHoldWhoseFactIsMissingDoesNotHold() throws {
    let compiled = try TestSchema.compile(
      "hold \"big\" when purchase.price is not missing and purchase.price > 50 USD\notherwise refund DECLINE"
    )
    let decision = compiled.evaluate(try TestSchema.baseFacts(), trace: false)
    #expect(decision.hold == nil)
    #expect(decision.actions.count == 1)
  }

  @Test(arguments: [
    ("rule \"r\" when true then hold for review", DiagnosticID.holdWithoutAnswer),
    ("otherwise hold for review", .holdWithoutAnswer),
    ("hold \"big\" when true then refund DECLINE", .holdWithThen),
    ("rule \"r\" when true then refund DECLINE\n  hold for review", .expectedActionSeparator),
    ("hold \"a\" when true\nhold \"a\" when false", .duplicateRuleName),
    ("hold \"a\" when usage.consumed", .conditionNotBoolean),
  ])
  func aMisusedHoldIsOneError(policy: String, id: DiagnosticID) {
    let result = TestSchema.load(policy)
    #expect(
      result.diagnostics.filter(\.isError).map(\.id) == [id], "\(result.renderedDiagnostics())")
  }

  @Test func holdForReviewBesideAnAnswerStillHolds() throws {
    let compiled = try TestSchema.compile("otherwise share data only, hold for review")
    let decision = compiled.evaluate(try TestSchema.baseFacts(), trace: false)
    #expect(decision.actions == [.replyWithoutChoice, .holdForReview])
    #expect(decision.hold == nil)
  }

  @Test func theFormatterKeepsHoldClauses() throws {
    let formatted = try PolicyFormatter(vocabulary: TestSchema.words).format(
      TestSchema.source(
        "hold   \"big purchases\"   when purchase.price>50 USD\notherwise refund DECLINE"))
    #expect(
      formatted
        == "hold \"big purchases\"\n  when purchase.price > 50 USD\notherwise refund DECLINE\n")
  }
}

/// A hold that can never hold a decision draws never-matches, as a rule that never decides does.
struct HoldNeverMatchesTests {
  @Test(arguments: [
    ("reason == LEGAL and reason == OTHER", "'reason == LEGAL' and 'reason == OTHER'"),
    ("usage.consumed > 80% and usage.consumed < 50%", "cannot all hold at once"),
    ("2 < 1", "its condition is always false"),
    ("reason in []", "'reason in []' is never true"),
  ])
  func aHoldThatCanNeverMatchIsAWarning(condition: String, says: String) {
    let result = TestSchema.load(
      "hold \"h\" when \(condition)\nrule \"r\" when usage.consumed > 5% then refund DECLINE")
    let warnings = result.diagnostics.filter { $0.id == .neverMatches }
    #expect(warnings.count == 1, "\(result.diagnostics)")
    #expect(warnings.first?.message.hasPrefix("hold 'h' can never match: ") == true)
    #expect(warnings.first?.message.contains(says) == true, "\(warnings)")
  }

  /// A percentage bound every value or none meets draws constant-percent-condition, as in a
  /// rule, naming the hold, and not never-matches as well.
  @Test(arguments: [
    ("usage.consumed < 0%", "hold 'h' can never match; check the bound"),
    ("usage.consumed <= 100% and reason == LEGAL", "remove it"),
  ])
  func aHoldsConstantPercentBoundIsNamedAsInARule(condition: String, hint: String) {
    let result = TestSchema.load(
      "hold \"h\" when \(condition)\nrule \"r\" when usage.consumed > 5% then refund DECLINE")
    let warnings = result.diagnostics.filter { $0.id == .constantPercentCondition }
    #expect(warnings.count == 1, "\(result.diagnostics)")
    #expect(warnings.first?.hint?.hasPrefix(hint) == true, "\(warnings)")
    #expect(!result.diagnostics.contains { $0.id == .neverMatches }, "\(result.diagnostics)")
  }

  @Test func aHoldThatCanMatchDrawsNone() {
    let result = TestSchema.load(
      "hold \"h\" when reason == LEGAL and usage.consumed > 50%\n"
        + "rule \"r\" when usage.consumed > 5% then refund DECLINE")
    #expect(!result.diagnostics.contains { $0.id == .neverMatches })
  }
}
