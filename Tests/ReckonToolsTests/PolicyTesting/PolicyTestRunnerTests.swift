import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// `reckon test`'s engine: facts from defaults and `given`, expectations against the real decision,
/// failures with positions, and coverage.
struct PolicyTestRunnerTests {
  static let policyText = """
    policy "small"
    rule "heavy use"
      when usage.consumed >= 80% and reason != LEGAL
      then refund DECLINE
    rule "recent"
      when now - purchase.date < 1 days
      then refund GRANT_FULL
    otherwise share data only
    """

  static func runner() throws -> PolicyTestRunner {
    let loaded = PolicyLoader.load(
      SourceFile(path: "small.policy", text: policyText), schema: FactSchema.standard.policySchema)
    return PolicyTestRunner(policy: try #require(loaded.policy))
  }

  static func run(_ tests: String) throws -> PolicyTestFileReport {
    try runner().run(SourceFile(path: "small.tests", text: tests))
  }

  @Test func passingTestsReportNoFailures() throws {
    let report = try Self.run(
      """
      test "heavy use is declined"
        given usage.consumed = 94%, reason = UNSATISFIED_WITH_PURCHASE
        expect refund DECLINE, rule "heavy use", consumptionPercentage = 94000
      """)
    #expect(report.passed)
    #expect(report.outcomes.map(\.name) == ["heavy use is declined"])
  }

  /// The body holds whole milliunits: a percentage finer than that, or beyond 100%, is refused
  /// rather than compared after rounding, where a typo would pass.
  @Test(arguments: [("94.0004%", false), ("94.004%", true), ("94%", true), ("100.5%", false)])
  func anExpectedPercentageMustBeWholeMilliunits(written: String, reads: Bool) throws {
    let report = try Self.run(
      "test \"t\"\n  given usage.consumed = 94%\n  expect consumptionPercentage = \(written)\n")
    #expect(report.problems.joined().contains("does not fit") == !reads, "\(report.problems)")
    if written == "94.0004%" {
      #expect(report.problems.joined().contains("a whole number of milliunits"))
    }
  }

  @Test func aFailureSaysExpectedAndActualAtTheExpectLine() throws {
    let report = try Self.run(
      """
      test "wrong"
        given usage.consumed = 10%
        expect refund DECLINE
      """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.expected == "refund DECLINE")
    #expect(failure.actual == "share data only")
    #expect(failure.location.description == "3:10")
    #expect(!report.passed)
  }

  @Test func factsNotGivenKeepTheirDocumentedDefaults() throws {
    let report = try Self.run(
      """
      test "defaults"
        expect share data only, otherwise, consumptionPercentage = 0, customerConsented = true
        expect deliveryStatus = DELIVERED, sampleContentProvided = false
      """)
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  @Test func timesCanBeGivenAsAgoRelativeToTheTestsNow() throws {
    let report = try Self.run(
      """
      test "bought an hour ago"
        given now = "2026-03-01T10:00:00Z", purchase.date = 1 hours ago
        expect refund GRANT_FULL, rule "recent"
      """)
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  @Test func fileWideGivenAppliesToEveryTest() throws {
    let report = try Self.run(
      """
      given usage.consumed = 90%
      test "first"
        expect refund DECLINE
      test "second can override it"
        given usage.consumed = 10%
        expect share data only
      """)
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  /// A failing test's trace reads each condition as `reckon eval --explain` does: its value, the
  /// fact it compared, and which fact was missing when it was unknown.
  @Test(arguments: [
    (
      "given usage.consumed is missing",
      """
                1. "heavy use" did not match: a fact it needs is missing
                     - usage.consumed >= 80%: unknown (usage.consumed missing)
      """
    ),
    (
      "given usage.consumed = 5%",
      """
                1. "heavy use" did not match
                     - usage.consumed >= 80%: false (usage.consumed is 5%)
      """
    ),
  ])
  func aFailingTestsTraceShowsValuesReadAndFactsMissing(_ given: String, _ trace: String) throws {
    let report = try Self.run(
      """
      test "wrong"
        \(given)
        expect refund GRANT_PRORATED
      """)
    let text = report.render(explainer: DecisionExplainer(policy: try Self.runner().policy))
    #expect(text.contains(trace), "\(text)")
  }

  /// A condition unknown because it compares money in different currencies says that in the
  /// trace, not that a fact is missing.
  @Test func aFailingTestsTraceSaysWhenCurrenciesDiffer() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "money.policy",
        text: """
          let pricey = purchase.price is not missing and purchase.price > 20 EUR
          rule "pricey" when pricey then refund DECLINE
          """), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy)
    let report = PolicyTestRunner(policy: policy).run(
      SourceFile(
        path: "money.tests",
        text: """
          test "pricey"
            given purchase.price = 25 USD
            expect refund DECLINE
          """))
    let text = report.render(explainer: DecisionExplainer(policy: policy))
    let reason = "25.00 USD cannot be compared with 20 EUR: different currencies"
    #expect(text.contains("1. \"pricey\" did not match: \(reason)"), "\(text)")
    #expect(text.contains("- pricey: unknown (\(reason))"), "\(text)")
  }

  /// A division by zero makes a condition and a let unknown with no fact missing: the trace and
  /// the let's expectation say which division, on which line, and what the divisor was.
  @Test func aFailingTestsTraceSaysWhereItDividedByZero() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "ratio.policy",
        text: """
          let ratio = customer.lifetime_refunded / customer.lifetime_spent
          rule "refund heavy" when ratio > 0.5 then refund DECLINE
          otherwise share data only
          """), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy)
    let report = PolicyTestRunner(policy: policy).run(
      SourceFile(
        path: "ratio.tests",
        text: """
          test "new customer"
            given customer.lifetime_spent = 0 USD
            expect refund DECLINE, ratio = 0
          """))
    let text = report.render(explainer: DecisionExplainer(policy: policy))
    let reason =
      "'customer.lifetime_refunded / customer.lifetime_spent' on line 1 divides by zero: "
      + "customer.lifetime_spent is 0.00 USD"
    #expect(text.contains("1. \"refund heavy\" did not match: \(reason)"), "\(text)")
    #expect(text.contains("- ratio > 0.5: unknown (\(reason))"), "\(text)")
    #expect(text.contains("actual   ratio is unknown (\(reason))"), "\(text)")
  }

  @Test func missingConsentMeansNoReply() throws {
    let report = try Self.run(
      """
      test "no consent"
        given customer.consented = false
        expect no reply, otherwise
      """)
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  static let silentPolicyText = """
    rule "legal"
      when reason == LEGAL
      then do not respond
    rule "other"
      when reason == OTHER
      then refund DECLINE
    otherwise do not respond
    """

  @Test(arguments: [
    ("reason = LEGAL, customer.consented = false", "expect do not respond, no reply", true),
    ("reason = LEGAL", "expect do not respond, no reply", true),
    (
      "reason = UNSATISFIED_WITH_PURCHASE, customer.consented = false", "expect do not respond",
      true
    ),
    ("reason = OTHER, customer.consented = false", "expect do not respond", false),
    ("reason = OTHER", "expect do not respond", false),
  ])
  func doNotRespondHoldsWhenThePolicySaidSoWhateverTheConsent(
    _ given: String, _ expect: String, _ holds: Bool
  ) throws {
    let loaded = PolicyLoader.load(
      SourceFile(path: "silent.policy", text: Self.silentPolicyText),
      schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let report = runner.run(
      SourceFile(path: "silent.tests", text: "test \"t\"\n  given \(given)\n  \(expect)\n"))
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed == holds, "\(report.render(explainer: nil))")
  }

  @Test func unknownNamesAreReportedWithFileLineAndColumn() throws {
    let report = try Self.run(
      """
      test "typos"
        given usage.consumd = 10%
        expect rule "heavy usage"
      """)
    let problems = report.problems.joined()
    #expect(problems.contains("small.tests:2:9: error[P0306]: unknown fact 'usage.consumd'"))
    #expect(problems.contains("did you mean 'usage.consumed'?"))
    #expect(
      problems.contains(
        "small.tests:3:15: error[P0301]: unknown rule in small.policy 'heavy usage'"))
    #expect(report.outcomes.isEmpty)
  }

  /// A failure names its test; two tests of one name would leave the reader guessing which.
  @Test func twoTestsOfOneNameAreAnErrorCitingTheFirst() throws {
    let report = try Self.run(
      """
      test "light use"
        given usage.consumed = 10%
        expect otherwise

      test "light use"
        given usage.consumed = 20%
        expect otherwise
      """)
    #expect(
      report.problems.joined().contains(
        "small.tests:5:6: error[P0224]: another test is already called 'light use' (line 1)"),
      "\(report.problems)")
    #expect(report.outcomes.isEmpty)
  }

  /// Expectations no decision can meet together would fail whatever the policy says; a repeated
  /// field or fact hides one of its two values. Each is an error at the later clause.
  @Test(
    arguments: [
      (
        "expect refund DECLINE\n  expect refund GRANT_FULL",
        "small.tests:4:10: error[P0226]: this test already expects refund DECLINE, which rules out refund GRANT_FULL (line 3)"
      ),
      (
        "expect refund DECLINE, share data only",
        "small.tests:3:26: error[P0226]: this test already expects refund DECLINE, which rules out share data only (line 3)"
      ),
      (
        "expect hold for review, no reply",
        "small.tests:3:27: error[P0226]: this test already expects hold for review, which rules out no reply (line 3)"
      ),
      (
        "expect do not respond\n  expect share data only",
        "small.tests:4:10: error[P0226]: this test already expects do not respond, which rules out share data only (line 3)"
      ),
      (
        "expect rule \"heavy use\", rule \"recent\"",
        "small.tests:3:28: error[P0226]: this test already expects rule \"heavy use\" to decide (line 3)"
      ),
      (
        "expect otherwise, rule \"recent\"",
        "small.tests:3:21: error[P0226]: this test expects both a rule and otherwise to decide (line 3)"
      ),
      // The field the preference is sent in says the preference.
      (
        "expect refundPreference = DECLINE, refund GRANT_FULL",
        "small.tests:3:38: error[P0226]: this test already expects refundPreference = DECLINE, which rules out refund GRANT_FULL (line 3)"
      ),
      (
        "expect share data only\n  expect refundPreference = DECLINE",
        "small.tests:4:10: error[P0226]: this test already expects share data only, which rules out refundPreference = DECLINE (line 3)"
      ),
      (
        "expect refund DECLINE, refundPreference is missing",
        "small.tests:3:26: error[P0226]: this test already expects refund DECLINE, which rules out refundPreference is missing (line 3)"
      ),
      (
        "expect consumptionPercentage = 40000, consumptionPercentage = 40%",
        "small.tests:3:41: error[P0226]: consumptionPercentage is already expected in this test (line 3)"
      ),
      // A field of the reply is expected of a reply: no reply has one.
      (
        "expect no reply, consumptionPercentage = 0",
        "small.tests:3:20: error[P0226]: this test already expects no reply, which rules out consumptionPercentage = 0 (line 3)"
      ),
      (
        "expect deliveryStatus is missing\n  expect do not respond",
        "small.tests:4:10: error[P0226]: this test already expects deliveryStatus is missing, which rules out do not respond (line 3)"
      ),
      (
        "given usage.consumed = 10%\n  expect otherwise",
        "small.tests:3:9: error[P0225]: usage.consumed is already given in this test (line 2)"
      ),
    ])
  func clashingClausesInOneTestAreAnErrorCitingTheFirst(_ clauses: String, _ error: String)
    throws
  {
    let report = try Self.run("test \"clash\"\n  given usage.consumed = 40%\n  \(clauses)")
    #expect(report.problems.joined().contains(error), "\(report.problems)")
    #expect(report.outcomes.isEmpty)
  }

  /// A tool reads a problem's place and code from the JSON report, as from `check`'s, beside
  /// the rendered text.
  @Test func theJSONReportGivesEachProblemAsADiagnostic() throws {
    let report = try Self.run(
      "test \"clash\"\n  given usage.consumed = 40%\n  expect refund DECLINE, share data only\n")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(PolicyTestJSONReport([report]).jsonText().utf8))
        as? [String: Any])
    let file = try #require((json["files"] as? [[String: Any]])?.first)
    #expect((file["problems"] as? [String])?.first?.contains("error[P0226]") == true, "\(file)")
    let diagnostics = try #require(file["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.count == 1, "\(diagnostics)")
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic["path"] as? String == "small.tests")
    #expect(diagnostic["code"] as? String == "P0226")
    #expect(diagnostic["id"] as? String == "conflicting-expectations")
    #expect(diagnostic["severity"] as? String == "error")
    #expect(diagnostic["line"] as? Int == 3)
    #expect(diagnostic["column"] as? Int == 26)
    #expect(
      (diagnostic["message"] as? String)?.hasPrefix("this test already expects refund DECLINE")
        == true, "\(diagnostic)")
  }

  @Test func factsGivenTwiceBeforeTheFirstTestAreAnError() throws {
    let report = try Self.run(
      """
      given reason = LEGAL
      given reason = OTHER
      test "light use"
        expect otherwise
      """)
    #expect(
      report.problems.joined().contains(
        "small.tests:2:7: error[P0225]: reason is already given before the first test (line 1)"),
      "\(report.problems)")
  }

  /// What the language allows beside each other still runs: a test's own facts over the file's,
  /// a held refund, `do not respond` with `no reply`, a rule with a field.
  @Test func compatibleClausesStillRun() throws {
    let report = try Self.run(
      """
      given usage.consumed = 90%
      test "heavy use"
        given usage.consumed = 94%
        expect refund DECLINE, rule "heavy use", rule "heavy use", consumptionPercentage = 94000
        expect refund DECLINE
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed)
  }

  @Test(arguments: ["99999999999999999999", "2.5", "9223372036854775808"])
  func aQuantityNoNotificationCanCarryIsAnErrorAtItsValue(_ quantity: String) throws {
    let report = try Self.run(
      """
      test "huge"
        given purchase.quantity = \(quantity)
        expect share data only
      """)
    let problems = report.problems.joined()
    #expect(
      problems.contains(
        "small.tests:2:29: error[P0321]: purchase.quantity: '\(quantity)' is not a whole number"),
      "\(problems)")
    #expect(problems.contains("  2 |   given purchase.quantity = \(quantity)"))
    #expect(problems.contains("^"))
    #expect(report.outcomes.isEmpty)
  }

  @Test func coverageOfRulesWithNamesShorterThanOtherwiseLinesUp() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "short.policy", text: "rule \"a\"\n  when reason == LEGAL\n  then refund DECLINE\n"),
      schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let report = runner.run(
      SourceFile(path: "short.tests", text: "test \"t\"\n  expect share data only\n"))
    let lines = try #require(report.coverage).lines()
    #expect(
      lines == [
        "rule \"a\"   never decided", "  - reason == LEGAL: seen false, never true",
        "otherwise  decided 1 test",
      ])
  }

  /// A rule that tests got to but that never matched was reached; one that no test got to,
  /// because a rule above decided every test, was not.
  @Test func coverageSaysNeverDecidedForARuleTriedAndNeverReachedForOneNotTried() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "two.policy",
        text: """
          rule "legal"
            when reason == LEGAL
            then refund DECLINE
          rule "undelivered"
            when delivery.status != DELIVERED
            then refund GRANT_FULL
          rule "consumable"
            when product.type == CONSUMABLE
            then share data only
          rule "heavy"
            when usage.consumed > 50%
            then refund DECLINE
          """), schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let report = runner.run(
      SourceFile(
        path: "two.tests",
        text: """
          test "legal"
            given reason = LEGAL
            expect refund DECLINE
          test "other"
            expect share data only
          """))
    let lines = try #require(report.coverage).lines()
    #expect(lines.contains("rule \"undelivered\"  never decided"), "\(lines)")
    #expect(lines.contains("rule \"heavy\"        never reached"), "\(lines)")
    #expect(lines.last == "otherwise           never reached", "\(lines)")
    #expect(report.render(explainer: nil).contains("2 of 4 rules decided"))
  }

  @Test func syntaxErrorsAreAllReported() throws {
    let report = try Self.run(
      """
      test "one"
        given usage.consumed = 10% expect refund DECLINE
        expect refund
      test two
      test "three"
        expect refnd DECLINE
      """)
    let problems = report.problems.joined()
    #expect(
      problems.contains(
        "small.tests:2:30: error[P0224]: expected ',' or a new line, found 'expect'"))
    #expect(
      problems.contains(
        "small.tests:3:10: error[P0224]: the line ends after 'refund': expected what the refund preference should be, such as DECLINE"
      ), "\(problems)")
    // A test whose clause did not read is not also said to expect nothing.
    #expect(!problems.contains("expects nothing"), "\(problems)")
    #expect(
      problems.contains("small.tests:4:6: error[P0224]: expected the test's name in double quotes"))
    #expect(
      problems.contains(
        "small.tests:6:10: error[P0224]: expected what the decision should be, found 'refnd'"))
    #expect(problems.contains("did you mean 'refund'?"))
  }

  /// A tests file with no test (empty, comments only, or file-wide lines only) is an error: it
  /// would pass, and a CI gate on it go green, having tested nothing.
  @Test(arguments: ["", "# to be written\n", "given usage.consumed = 10%\n"])
  func aFileWithNoTestIsAnError(_ text: String) throws {
    let report = try Self.run(text)
    #expect(!report.passed)
    #expect(
      report.problems.joined().contains("small.tests:1:1: error[P0224]: the file has no test"),
      "\(report.problems)")
  }

  /// A clause cut short at the end of its line is reported on that line, under its last word,
  /// not at the next line's first word (often the next test's).
  @Test(arguments: [
    ("  given usage.consumed =\n", "small.tests:2:24: error[P0224]: expected a value after '='"),
    (
      "  given usage.consumed = 10%,\n",
      "small.tests:2:29: error[P0224]: the line ends with ',' but 'expect' on the next starts a new clause"
    ),
    ("  expect no\n", "small.tests:2:10: error[P0224]: the line ends after 'no': expected 'reply'"),
    (
      "  expect share data only,\n",
      "small.tests:2:25: error[P0224]: the line ends with ',' but 'expect' on the next starts a new clause"
    ),
    (
      "  expect share data\n",
      "small.tests:2:16: error[P0224]: the line ends after 'data': expected 'only'"
    ),
  ])
  func aClauseCutShortIsReportedAtTheEndOfItsLine(_ line: String, _ error: String) throws {
    let report = try Self.run(
      "test \"a\"\n" + line + "  expect refund DECLINE\ntest \"b\"\n  expect otherwise\n")
    #expect(report.problems.joined().contains(error), "\(report.problems)")
  }

  @Test func coverageTellsReachedRulesAndConditionsSeenBothWays() throws {
    let report = try Self.run(
      """
      test "heavy"
        given usage.consumed = 90%
        expect refund DECLINE
      """)
    let coverage = try #require(report.coverage)
    #expect(coverage.undecidedRules == ["recent"])
    #expect(coverage.rules[0].conditions.map(\.seenTrue) == [true, true])
    #expect(coverage.uncoveredConditions.contains("heavy use: usage.consumed >= 80%"))
  }
}
