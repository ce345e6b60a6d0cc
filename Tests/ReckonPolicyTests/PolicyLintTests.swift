import Testing

@testable import ReckonPolicy

struct PolicyLintTests {
  struct LintCase: CustomTestStringConvertible, Sendable {
    let label: String
    let policy: String
    let warnings: [DiagnosticID]
    var testDescription: String { label }
  }

  static let reachability: [LintCase] = [
    LintCase(
      label: "constant false never matches", policy: "rule \"a\" when 1 > 2 then refund DECLINE",
      warnings: [.neverMatches]),
    LintCase(
      label: "constant false through a let",
      policy: "let off = false\nrule \"a\" when off then refund DECLINE",
      warnings: [.neverMatches]),
    LintCase(
      label: "a condition that can be false is fine",
      policy: "rule \"a\" when customer.refunds_last_90_days > 2 then refund DECLINE",
      warnings: []),
    LintCase(
      label: "always-true rule makes later rules and otherwise unreachable",
      policy: """
        rule "all" when true then refund DECLINE
        rule "late" when reason == LEGAL then refund GRANT_FULL
        otherwise share data only
        """,
      warnings: [.unreachableRule, .unreachableRule]),
    LintCase(
      label: "always true by folding",
      policy:
        "rule \"all\" when 1 < 2 or reason == LEGAL then refund DECLINE\notherwise do not respond",
      warnings: [.unreachableRule]),
    LintCase(
      label: "the last rule always true with implicit otherwise",
      policy: "rule \"all\" when true then refund DECLINE",
      warnings: []),
    LintCase(
      label: "earlier rule's conditions a subset shadows",
      policy: """
        rule "legal" when reason == LEGAL then refund GRANT_FULL
        rule "legal and heavy" when usage.consumed > 80% and reason == LEGAL then refund DECLINE
        """,
      warnings: [.shadowedRule]),
    LintCase(
      label: "shadowing through a boolean let",
      policy: """
        let heavy = usage.consumed >= 80% and reason == OTHER
        rule "heavy" when heavy then refund DECLINE
        rule "heavy other" when reason == OTHER and usage.consumed >= 80% and delivery.status == DELIVERED
          then refund GRANT_FULL
        """,
      warnings: [.shadowedRule]),
    LintCase(
      label: "shadowed by a rule whose condition is a let: one warning",
      policy: """
        let big = customer.refunds_last_90_days > 5
        rule "a" when big then refund DECLINE
        rule "b" when reason == LEGAL and customer.refunds_last_90_days > 5 then refund GRANT_FULL
        """,
      warnings: [.shadowedRule]),
    LintCase(
      label: "a later rule that is broader is not shadowed",
      policy: """
        rule "legal and heavy" when usage.consumed > 80% and reason == LEGAL then refund DECLINE
        rule "legal" when reason == LEGAL then refund GRANT_FULL
        """,
      warnings: []),
    LintCase(
      label: "or is not a conjunction",
      policy: """
        rule "either" when reason == LEGAL or reason == OTHER then refund DECLINE
        rule "legal" when reason == LEGAL then refund GRANT_FULL
        """,
      warnings: []),
    LintCase(
      label: "a never-matching rule shadows nothing",
      policy: """
        rule "never" when false then refund DECLINE
        rule "legal" when reason == LEGAL then refund GRANT_FULL
        """,
      warnings: [.neverMatches]),
  ]

  static let optionalFacts: [LintCase] = [
    LintCase(
      label: "unguarded optional fact",
      policy: "rule \"a\" when now - usage.last_used > 30 days then refund DECLINE",
      warnings: [.unguardedOptionalFact]),
    LintCase(
      label: "guarded optional fact",
      policy:
        "rule \"a\" when usage.last_used is not missing and now - usage.last_used > 30 days then refund DECLINE",
      warnings: []),
    LintCase(
      label: "unguarded read through a let",
      policy:
        "let idle = now - usage.last_used\nrule \"a\" when idle > 30 days then refund DECLINE",
      warnings: [.unguardedOptionalFact]),
    LintCase(
      label: "guarded through a let",
      policy:
        "let idle = now - usage.last_used\nrule \"a\" when idle is not missing and idle > 30 days then refund DECLINE",
      warnings: []),
    LintCase(
      label: "guard inside a let",
      policy: """
        let known = usage.last_used is not missing
        rule "a" when known and now - usage.last_used > 30 days then refund DECLINE
        """,
      warnings: []),
    LintCase(
      label: "is missing alone reads nothing",
      policy: "rule \"a\" when purchase.price is missing then refund DECLINE",
      warnings: []),
    LintCase(
      label: "unguarded read in a set value",
      policy:
        "rule \"a\" when true then refund DECLINE, set sampleContentProvided = purchase.price > 1 USD",
      warnings: [.unguardedOptionalFact]),
    LintCase(
      label: "required facts need no guard",
      policy: "rule \"a\" when usage.consumed > 10% then refund DECLINE",
      warnings: []),
    // A hold whose condition is unknown does not hold: as silent as a rule that does not match.
    LintCase(
      label: "unguarded optional fact in a hold",
      policy: """
        hold "idle" when now - usage.last_used > 30 days
        otherwise share data only
        """,
      warnings: [.unguardedOptionalFact]),
    LintCase(
      label: "guarded optional fact in a hold",
      policy: """
        hold "idle" when usage.last_used is not missing and now - usage.last_used > 30 days
        otherwise share data only
        """,
      warnings: []),
  ]

  static let prorated: [LintCase] = [
    LintCase(
      label: "prorated without a bound",
      policy: "rule \"a\" when reason == OTHER then refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated with only a lower bound",
      policy: "rule \"a\" when usage.consumed > 0% then refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated with a bound that allows 100%",
      policy:
        "rule \"a\" when usage.consumed > 0% and usage.consumed <= 100% then refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound, .constantPercentCondition]),
    LintCase(
      label: "prorated bounded but maybe undelivered (sent as 0% used)",
      policy:
        "rule \"a\" when usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated bounded and delivered",
      policy:
        "rule \"a\" when delivery.status == DELIVERED and usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED",
      warnings: []),
    LintCase(
      label: "prorated bounded from the other side",
      policy:
        "rule \"a\" when DELIVERED == delivery.status and 5% <= usage.consumed and 95% >= usage.consumed then refund GRANT_PRORATED",
      warnings: []),
    LintCase(
      label: "prorated bounded through lets",
      policy: """
        let used = usage.consumed
        let partly = used > 0% and used < 100% and delivery.status == DELIVERED
        rule "a" when partly then refund GRANT_PRORATED
        """,
      warnings: []),
    LintCase(
      label: "prorated bounded after a rule that decides every undelivered purchase",
      policy: """
        rule "failed" when delivery.status != DELIVERED then refund GRANT_FULL
        rule "a" when usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED
        """,
      warnings: []),
    LintCase(
      label: "prorated bounded after a rule that decides only some undelivered purchases",
      policy: """
        rule "failed" when delivery.status != DELIVERED and reason == OTHER then refund GRANT_FULL
        rule "a" when usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED
        """,
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated for subscriptions",
      policy: "rule \"a\" when product.type == AUTO_RENEWABLE then refund GRANT_PRORATED",
      warnings: []),
    LintCase(
      label: "prorated for subscriptions written the other way round",
      policy: "rule \"a\" when AUTO_RENEWABLE == product.type then refund GRANT_PRORATED",
      warnings: []),
    LintCase(
      label: "prorated for subscriptions in a list",
      policy: "rule \"a\" when product.type in [AUTO_RENEWABLE] then refund GRANT_PRORATED",
      warnings: []),
    LintCase(
      label: "prorated for a list with a non-exempt type",
      policy:
        "rule \"a\" when product.type in [AUTO_RENEWABLE, CONSUMABLE] then refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated with the percentage set, delivered, not a subscription",
      policy:
        "rule \"a\" when reason == OTHER and delivery.status == DELIVERED and product.type != AUTO_RENEWABLE then refund GRANT_PRORATED, set consumptionPercentage = 50%",
      warnings: []),
    LintCase(
      label: "prorated with the percentage set, maybe for a subscription (which takes none)",
      policy:
        "rule \"a\" when reason == OTHER and delivery.status == DELIVERED then refund GRANT_PRORATED, set consumptionPercentage = 50%",
      warnings: [.percentageAppleRefuses]),
    LintCase(
      label: "prorated with the percentage set but maybe undelivered (which takes only 0%)",
      policy:
        "rule \"a\" when reason == OTHER then refund GRANT_PRORATED, set consumptionPercentage = 50%",
      warnings: [.percentageAppleRefuses]),
    LintCase(
      label: "prorated with the percentage set to 100%",
      policy:
        "rule \"a\" when reason == OTHER then refund GRANT_PRORATED, set consumptionPercentage = 100%",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated in otherwise", policy: "otherwise refund GRANT_PRORATED",
      warnings: [.proratedWithoutUsageBound]),
    LintCase(
      label: "prorated in otherwise with the percentage set, subscriptions reaching it",
      policy: """
        rule "failed" when delivery.status != DELIVERED then refund GRANT_FULL
        otherwise refund GRANT_PRORATED, set consumptionPercentage = 50%
        """,
      warnings: [.percentageAppleRefuses]),
    LintCase(
      label: "prorated in otherwise with the percentage set, after rules for the rest",
      policy: """
        rule "failed" when delivery.status != DELIVERED then refund GRANT_FULL
        rule "subscriptions" when product.type == AUTO_RENEWABLE then share data only
        otherwise refund GRANT_PRORATED, set consumptionPercentage = 50%
        """,
      warnings: []),
    LintCase(
      label: "other refunds need no bound", policy: "otherwise refund GRANT_FULL", warnings: []),
  ]

  static let consent: [LintCase] = [
    LintCase(
      label: "refunding only without consent sends nothing",
      policy: "rule \"a\" when customer.consented == false then refund GRANT_FULL",
      warnings: [.answersWithoutConsent]),
    LintCase(
      label: "not true, written either way round",
      policy: "rule \"a\" when true != customer.consented then share data only",
      warnings: [.answersWithoutConsent]),
    LintCase(
      label: "negated, through a let",
      policy: "let refused = not customer.consented\nrule \"a\" when refused then refund DECLINE",
      warnings: [.answersWithoutConsent]),
    LintCase(
      label: "beside another condition",
      policy:
        "rule \"a\" when reason == LEGAL and customer.consented is missing then refund DECLINE",
      warnings: [.answersWithoutConsent]),
    LintCase(
      label: "saying so is fine",
      policy: "rule \"a\" when customer.consented == false then do not respond",
      warnings: []),
    LintCase(
      label: "with consent is fine",
      policy: "rule \"a\" when customer.consented == true then refund GRANT_FULL", warnings: []),
    LintCase(
      label: "either way (or) is fine",
      policy:
        "rule \"a\" when customer.consented == false or reason == LEGAL then refund GRANT_FULL",
      warnings: []),
  ]

  @Test("a rule that answers only without consent is warned about", arguments: consent)
  func consentWarnings(_ testCase: LintCase) {
    expectWarnings(testCase)
  }

  @Test("rules that can never decide are warned about", arguments: reachability)
  func reachabilityWarnings(_ testCase: LintCase) {
    expectWarnings(testCase)
  }

  @Test("optional facts read without a guard are warned about", arguments: optionalFacts)
  func optionalFactWarnings(_ testCase: LintCase) {
    expectWarnings(testCase)
  }

  @Test("GRANT_PRORATED without a usage bound is warned about", arguments: prorated)
  func proratedWarnings(_ testCase: LintCase) {
    expectWarnings(testCase)
  }

  private func expectWarnings(_ testCase: LintCase) {
    let result = TestSchema.load(testCase.policy)
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    #expect(result.policy != nil)
    #expect(result.diagnostics.map(\.id) == testCase.warnings, "\(result.renderedDiagnostics())")
  }

  /// Three-valued logic: a missing fact beside an `or` leaves that part unknown, and the rule still
  /// matches when the other side holds, so the warning must not say the rule does not match.
  @Test(arguments: [
    ("purchase.price > 5 USD or reason == OTHER", true),
    ("reason == LEGAL and (purchase.price > 5 USD or reason == OTHER)", true),
    ("not (purchase.price > 5 USD and reason == OTHER)", true),
    ("pricey", true),
    ("purchase.price > 5 USD", false),
    ("not (purchase.price > 5 USD or reason == OTHER)", false),
    ("(purchase.price > 5 USD or reason == OTHER) and purchase.price < 9 USD", false),
  ])
  func anOptionalFactBesideOrIsSaidToLeaveTheOtherSideToDecide(
    _ condition: String, _ besideOr: Bool
  ) throws {
    let result = TestSchema.load(
      """
      let pricey = purchase.price > 20 USD or reason == OTHER
      rule "a" when \(condition) then refund DECLINE
      """)
    let warning = try #require(result.diagnostics.first { $0.id == .unguardedOptionalFact })
    let orEffect =
      "when it is missing, this part is unknown and the rule matches only if another part of its condition settles it"
    let andEffect = "when it is missing the rule does not match"
    #expect(warning.message.hasSuffix(besideOr ? orEffect : andEffect), "\(warning.message)")
  }

  /// A `set` that reads a missing fact does not stop the rule from matching: the rule decides
  /// and the field has no value, so no reply is sent. A guard in the condition is still heeded.
  @Test(arguments: [
    ("reason == LEGAL", "when it is missing, the rule still decides and no reply is sent"),
    (
      "reason == LEGAL or purchase.price < 1 USD",
      "when it is missing, the rule still decides and no reply is sent"
    ),
    ("purchase.price < 100 USD", "when it is missing the rule does not match"),
  ])
  func anOptionalFactReadBySetIsSaidToLeaveNoReply(_ condition: String, _ effect: String) throws {
    let result = TestSchema.load(
      "rule \"a\" when \(condition) then refund DECLINE, set sampleContentProvided = purchase.price > 5 USD"
    )
    let warning = try #require(result.diagnostics.first { $0.id == .unguardedOptionalFact })
    #expect(
      warning.message == "rule 'a' reads purchase.price, which a request may not have; \(effect)")
    let guarded = TestSchema.load(
      "rule \"a\" when purchase.price is not missing then refund DECLINE, set sampleContentProvided = purchase.price > 5 USD"
    )
    #expect(guarded.diagnostics.isEmpty, "\(guarded.renderedDiagnostics())")
  }

  /// For `!=` and `not in`, the hint says how to match requests without the fact: the advice
  /// `is not missing and` would keep every such request from the rule. Following the hint
  /// silences the warning and the rule then decides a request without the fact.
  @Test(arguments: [
    (
      "purchase.price != 1 USD",
      "to match requests without it too, write (purchase.price is missing or purchase.price != 1 USD)"
    ),
    (
      "purchase.price not in [1 USD, 2 USD] and usage.consumed < 80%",
      "to match requests without it too, write (purchase.price is missing or purchase.price not in [1 USD, 2 USD])"
    ),
    (
      "purchase.price == 1 USD",
      "say what should happen without it, e.g. purchase.price is not missing and ..."
    ),
    (
      "not (purchase.price == 1 USD)",
      "say what should happen without it, e.g. purchase.price is not missing and ..."
    ),
    (
      "purchase.price != 1 USD and purchase.price != 2 USD",
      "to match requests without it too, write (purchase.price is missing or (purchase.price != 1 USD and purchase.price != 2 USD))"
    ),
    (
      "purchase.price != 1 USD and purchase.price > 0 USD",
      "say what should happen without it, e.g. purchase.price is not missing and ..."
    ),
  ])
  func theHintForAnExcludingComparisonMatchesRequestsWithoutTheFact(
    _ condition: String, _ hint: String
  ) throws {
    let result = TestSchema.load("rule \"a\" when \(condition) then refund GRANT_FULL")
    let warning = try #require(result.diagnostics.first { $0.id == .unguardedOptionalFact })
    #expect(warning.hint == hint)
    guard let fix = hint.split(separator: "write ", maxSplits: 1).dropFirst().first else { return }
    // The hint replaces every comparison of the fact; the other parts stay.
    let rest = condition.components(separatedBy: " and ").filter { !$0.contains("purchase.price") }
    let fixed = try TestSchema.compile(
      "rule \"a\" when \(([String(fix)] + rest).joined(separator: " and ")) then refund GRANT_FULL\n"
        + "otherwise share data only")
    #expect(TestSchema.warningIDs("rule \"a\" when \(fix) then refund GRANT_FULL").isEmpty)
    #expect(fixed.evaluate(try TestSchema.baseFacts(), trace: false).rule == 0)
  }

  /// A fact a `set` reads too gets the general hint: matching requests without it would leave
  /// the field without a value, and the rule would send nothing.
  @Test func theExcludingHintIsNotGivenWhenASetReadsTheFactToo() throws {
    let result = TestSchema.load(
      "rule \"a\" when purchase.price != 1 USD then refund DECLINE, "
        + "set sampleContentProvided = purchase.price > 5 USD")
    let warning = try #require(result.diagnostics.first { $0.id == .unguardedOptionalFact })
    #expect(
      warning.hint
        == "say what should happen without it, e.g. purchase.price is not missing and ...")
  }

  /// `otherwise` has no condition, so its `set` reading an optional fact is warned about with a
  /// rule above it as the fix.
  @Test func anOptionalFactReadBySetInOtherwiseIsWarnedAbout() throws {
    let result = TestSchema.load(
      "otherwise refund GRANT_FULL, set sampleContentProvided = purchase.price > 5 USD")
    let warning = try #require(result.diagnostics.first)
    #expect(result.diagnostics.map(\.id) == [.unguardedOptionalFact])
    #expect(
      warning.message
        == "'otherwise' reads purchase.price, which a request may not have; when it is missing, 'otherwise' still decides and no reply is sent"
    )
    #expect(
      warning.hint
        == "decide requests without it in a rule above 'otherwise', e.g. when purchase.price is missing then ..."
    )
    #expect(result.source.text(of: warning.span) == "purchase.price")
  }

  @Test func warningsPointAtWhatTheyAreAbout() throws {
    let result = TestSchema.load(
      """
      let idle = now - usage.last_used
      rule "a" when idle > 30 days then refund DECLINE
      rule "b" when reason == OTHER then refund GRANT_PRORATED
      """)
    let texts = result.diagnostics.map { result.source.text(of: $0.span) }
    #expect(texts == ["idle", "\"b\""])
  }

  @Test func manyLetsBuiltFromEachOtherLintInLinearTime() throws {
    var lines = ["let l0 = usage.last_used is not missing and reason == OTHER"]
    for index in 1..<60 {
      lines.append("let l\(index) = l\(index - 1) and l\(index - 1)")
    }
    lines.append("rule \"a\" when l59 then refund DECLINE")
    lines.append("rule \"b\" when l59 and now - usage.last_used > 1 day then refund GRANT_FULL")
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      #expect(TestSchema.warningIDs(lines.joined(separator: "\n")) == [.shadowedRule])
    }
    #expect(elapsed < .seconds(2))
  }
}
