import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// Values in tests files at their edges: a time counted back past year 1 is an error at its
/// line, a `now` that cannot be read is one error (not one more for the default purchase date),
/// and a let's expected number is compared as the language compares numbers.
struct PolicyTestValueEdgeTests {
  static let policyText = """
    let s = customer.refunds_last_90_days / 10 + 0.2
    let bought = purchase.date
    rule "three tenths"
      when s == 0.3
      then refund DECLINE
    rule "recent"
      when purchase.date is not missing and now - purchase.date < 1 day
      then refund GRANT_FULL
    otherwise share data only
    """

  static func run(_ tests: String) throws -> PolicyTestFileReport {
    let loaded = PolicyLoader.load(
      SourceFile(path: "edge.policy", text: policyText), schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    return runner.run(SourceFile(path: "edge.tests", text: tests))
  }

  @Test func aTimeCountedBackPastYearOneIsAnErrorAtItsLine() throws {
    let report = try Self.run(
      """
      test "long ago"
        given purchase.date = 99999999999 days ago
        expect otherwise
      """)
    #expect(report.problems.count == 1, "\(report.problems)")
    #expect(
      report.problems.joined().contains(
        "edge.tests:2:25: error[P0321]: purchase.date: '99999999999 days ago' is not a time in years 1 to 9999"
      ), "\(report.problems)")
    #expect(!report.passed)
  }

  @Test(arguments: ["\"yesterday\"", "\"0000-01-01\""])
  func aNowThatCannotBeReadIsOneError(_ now: String) throws {
    let report = try Self.run(
      """
      test "bad now"
        given now = \(now)
        expect otherwise
      """)
    #expect(report.problems.count == 1, "\(report.problems)")
    #expect(
      report.problems.joined().contains("edge.tests:2:15: error[P0321]: now: "),
      "\(report.problems)")
    #expect(!report.problems.joined().contains("lower case"), "\(report.problems)")
  }

  @Test func aTimeCountedBackFromAMissingNowSaysSo() throws {
    let report = try Self.run(
      """
      test "no now"
        given now is missing, purchase.date = 3 days ago
        expect otherwise
      """)
    #expect(report.problems.count == 1, "\(report.problems)")
    #expect(
      report.problems.joined().contains("'3 days ago' counts back from now"), "\(report.problems)")
  }

  @Test func aCountThatIsNotANumberIsNotToldToWriteTheUnitInLowerCase() throws {
    let report = try Self.run(
      """
      test "no count"
        given purchase.date = many days ago
        expect otherwise
      """)
    #expect(!report.problems.joined().contains("lower case"), "\(report.problems)")
    #expect(report.problems.joined().contains("'many days ago' is not a time"))
  }

  @Test func aLetsNumberIsComparedAsTheLanguageComparesNumbers() throws {
    let report = try Self.run(
      """
      test "a tenth and two tenths"
        given customer.refunds_last_90_days = 1
        expect s = 0.3, rule "three tenths"
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  @Test func aLetsNumberThatDiffersStillFails() throws {
    let report = try Self.run(
      """
      test "not three tenths"
        given customer.refunds_last_90_days = 2
        expect s = 0.3
      """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.expected == "s = 0.3")
    #expect(failure.actual == "s = 0.4")
  }

  /// A time is written and shown to the second: one with a fraction of a second is the time a
  /// test can write (a failure would show the same time as expected and actual).
  @Test func aLetsTimeIsComparedAsItIsShown() throws {
    let report = try Self.run(
      """
      test "half a second in"
        given now = "2026-03-01T00:00:00Z"
        given purchase.date = "2026-02-27T12:00:00.5Z"
        expect bought = "2026-02-27T12:00:00Z"
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  /// A time expected with a fraction of a second is compared exactly, and a failure shows the
  /// fraction: the actual time is never shown as the expected one.
  @Test func aLetsTimeExpectedWithAFractionIsComparedExactly() throws {
    let report = try Self.run(
      """
      test "a quarter, not three quarters"
        given now = "2026-03-01T00:00:00Z"
        given purchase.date = "2026-02-27T12:00:00.750Z"
        expect bought = "2026-02-27T12:00:00.250Z"
      """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.actual == "bought = 2026-02-27T12:00:00.750Z")
    #expect(failure.expected == "bought = 2026-02-27T12:00:00.250Z")
  }

  /// A tenth of a second is held as a binary fraction just under it: shown to the nearest
  /// millisecond, it reads as written.
  @Test func aFractionShowsToTheNearestMillisecond() throws {
    let report = try Self.run(
      """
      test "a tenth, not two"
        given now = "2026-03-01T00:00:00Z"
        given purchase.date = "2026-02-27T12:00:00.1Z"
        expect bought = "2026-02-27T12:00:00.2Z"
      """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.actual == "bought = 2026-02-27T12:00:00.100Z")
    #expect(failure.expected == "bought = 2026-02-27T12:00:00.200Z")
  }

  /// A tests file writes money as a policy does: a code that names no currency is refused where
  /// it is written, with the code one letter away.
  @Test(arguments: [
    ("given customer.lifetime_spent = 10 USE", "did you mean 'USD'?"),
    ("given customer.lifetime_spent = 10 XYZ", "write an ISO 4217 currency code, such as USD"),
  ])
  func anUnknownCurrencyIsAnErrorWithASuggestion(_ line: String, _ hint: String) throws {
    let report = try Self.run("test \"t\"\n  \(line)\n  expect otherwise\n")
    let problems = report.problems.joined()
    #expect(
      problems.contains("edge.tests:2:35: error[P0321]: customer.lifetime_spent: unknown currency"))
    #expect(problems.contains(hint), "\(problems)")
  }
}

extension PolicyTestValueEdgeTests {
  /// A test gives only facts a request can have: a purchase or a use after the request's `now`,
  /// a count with a fraction or anything below zero would test a request that never comes.
  @Test(arguments: [
    (
      #"given purchase.date = "2027-01-01""#,
      "purchase.date: '2027-01-01' is after the test's now (2026-01-15T12:00:00Z)"
    ),
    ("given customer.refunds_last_90_days = 2.5", "'2.5' is not a whole number: it counts"),
    ("given customer.refunds_last_90_days = -1", "'-1' is below zero, which no request has"),
    ("given customer.account_age = -5 days", "'-5 days' is below zero, which no request has"),
    ("given customer.lifetime_refunded = -1 USD", "'-1 USD' is below zero, which no request has"),
  ])
  func aFactNoRequestCanHaveIsRefused(_ given: String, _ message: String) throws {
    let report = try Self.run(
      """
      test "impossible"
        \(given)
        expect refund DECLINE
      """)
    #expect(report.problems.count == 1, "\(report.problems)")
    #expect(report.problems.first?.contains(message) == true, "\(report.problems)")
  }

  /// The same times before `now` are taken as given, and a use after `now` too: facts are read
  /// when the request is decided, and a customer may go on using what they asked to refund.
  @Test func aPurchaseBeforeNowAndAUseAfterItAreTaken() throws {
    let report = try Self.run(
      """
      test "bought last year, used since asking"
        given now = "2027-02-01T00:00:00Z"
        given purchase.date = "2027-01-01"
        given usage.last_used = "2027-02-02T00:00:00Z"
        expect refund DECLINE
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
  }
}

extension PolicyTestValueEdgeTests {
  /// A let's duration that fails its expectation is shown with its size in days beside the
  /// unit it came out in, so `348 hours` reads against an expected `14 days`.
  @Test func aFailingDurationShowsItsSizeInDays() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "age.policy",
        text: "let age = now - purchase.date\nrule \"r\" when age > 400 days then refund DECLINE\n"),
      schema: FactSchema.standard.policySchema)
    let report = PolicyTestRunner(policy: try #require(loaded.policy)).run(
      SourceFile(
        path: "age.tests",
        text: "test \"t\"\n  given purchase.date = 348 hours ago\n  expect age = 14 days\n"))
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.actual == "age = 348 hours (about 14.5 days)")
    #expect(failure.expected == "age = 14 days")
  }
}
