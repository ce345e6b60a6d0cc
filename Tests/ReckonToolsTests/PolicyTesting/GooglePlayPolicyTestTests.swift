import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// Policy tests of Google Play reviews: `store googlePlay` for the file or one test, facts in
/// Google Play's schema, expectations in Google's words, and one report (and coverage) for a
/// policy tested in both stores' words.
struct GooglePlayPolicyTestTests {
  /// A policy of words both stores share.
  static let sharedPolicy = """
    policy "both"
    rule "barely used"
      when usage.consumed < 10%
      then share data only
    rule "never delivered"
      when delivery.status != DELIVERED
      then do not respond
    otherwise share data only
    """

  static let googlePolicy = """
    policy "play"
    rule "fraud, spent"
      when reason == FRIENDLY_FRAUD and usage.consumed >= 50%
      then refund DECLINE
    rule "untouched"
      when usage.consumed == 0%
      then refund APPROVE, set consumptionPercentage = 0%
    otherwise share data only
    """

  /// Writes the policy and its tests beside it, and runs them as `reckon test` does.
  static func run(policy: String, tests: String) throws -> PolicyTestFileReport {
    let folder = TestScratch.folder.appendingPathComponent("gp-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try policy.write(toFile: folder + "/p.policy", atomically: true, encoding: .utf8)
    try tests.write(toFile: folder + "/p.tests", atomically: true, encoding: .utf8)
    return try PolicyTestRunner.run(testsPath: folder + "/p.tests")
  }

  @Test func aFileOfGooglePlayTestsExpectsGooglesAnswers() throws {
    let report = try Self.run(
      policy: Self.googlePolicy,
      tests: """
        store googlePlay
        given reason = FRIENDLY_FRAUD

        test "spent fraud is declined"
          given usage.consumed = 80%
          expect refund DECLINE, rule "fraud, spent", consumptionPercentage = 80000
          expect sampleContentProvided = false

        test "untouched is approved"
          expect refund APPROVE, consumptionPercentageMilliunits = 0

        test "in between answers NEUTRAL"
          given usage.consumed = 20%
          expect share data only, otherwise, refundPreference = NEUTRAL
        """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed)
    #expect(report.outcomes.map { $0.decision?.store } == [.googlePlay, .googlePlay, .googlePlay])
    #expect(report.coverage?.undecidedRules == [])
  }

  @Test func aGooglePlayExpectationThatIsNotMetFailsInGooglesWords() throws {
    let report = try Self.run(
      policy: Self.googlePolicy,
      tests: """
        store googlePlay
        test "wrong"
          given usage.consumed = 20%
          expect refund APPROVE
        """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.expected == "refund APPROVE")
    #expect(failure.actual == "refund NEUTRAL")
  }

  @Test(arguments: [
    ("expect refund GRANT_FULL", "unknown refund preference 'GRANT_FULL'"),
    ("expect deliveryStatus = DELIVERED", "deliveryStatus"),
    ("given product.type = CONSUMABLE\n  expect no reply", "unknown fact 'product.type'"),
  ])
  func appleWordsInAGooglePlayTestAreErrors(_ lines: String, _ problem: String) throws {
    let report = try Self.run(
      policy: Self.googlePolicy, tests: "store googlePlay\ntest \"t\"\n  \(lines)\n")
    #expect(report.problems.joined().contains(problem), "\(report.problems)")
  }

  @Test func aPolicyServingBothStoresHasTestsForEachAndOneCoverage() throws {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests: """
        test "an App Store request barely used shares data only"
          given usage.consumed = 5%
          expect share data only, rule "barely used", refundPreference is missing

        test "a Google Play review barely used answers NEUTRAL"
          store googlePlay
          given usage.consumed = 5%
          expect refund NEUTRAL, consumptionPercentage = 5000

        test "an App Store request never delivered gets no reply"
          given delivery.status = UNDELIVERED_OTHER, usage.consumed = 50%
          expect do not respond

        test "a Google Play review used is shared"
          store googlePlay
          given usage.consumed = 50%
          expect share data only, otherwise
        """)
    #expect(report.passed, "\(report.render(explainer: nil))")
    // Every fact a test gave is one of its store's: none was refused.
    #expect(report.outcomes.allSatisfy { $0.decision?.facts.refused == [] })
    // File order, whichever store's run decided each.
    #expect(
      report.outcomes.map { $0.decision?.store } == [
        .appStore, .googlePlay, .appStore, .googlePlay,
      ])
    let coverage = try #require(report.coverage)
    #expect(coverage.rules.map(\.decided) == [2, 1])
    #expect(coverage.otherwiseDecided == 1)
  }

  @Test func aPolicyInAppStoreWordsCannotRunGooglePlayTests() throws {
    let report = try Self.run(
      policy: """
        policy "apple"
        rule "heavy" when usage.consumed > 80% then refund GRANT_PRORATED
        otherwise share data only
        """,
      tests: """
        test "apple"
          expect share data only
        test "google"
          store googlePlay
          expect share data only
        """)
    #expect(!report.passed)
    #expect(
      report.problems.first?.contains("does not check in Google Play's words") == true,
      "\(report.problems)")
  }

  @Test(arguments: [
    ("store playStore\ntest \"t\"\n  expect no reply\n", "unknown store 'playStore'"),
    (
      "test \"t\"\n  store googlePlay\n  store appStore\n  expect no reply\n",
      "the store is already named"
    ),
    ("store\ntest \"t\"\n  expect no reply\n", "expected the store's name"),
  ])
  func storeLinesAreCheckedWherever(_ tests: String, _ problem: String) throws {
    let report = try Self.run(policy: Self.sharedPolicy, tests: tests)
    #expect(report.problems.joined().contains(problem), "\(report.problems)")
  }

  @Test func aProblemOfAFileTestingBothStoresIsSaidOnce() throws {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests: """
        given product.idd = "x"

        test "an App Store request"
          expect share data only

        test "another App Store request"
          expect share data only

        test "a review"
          store googlePlay
          expect share data only
        """)
    #expect(!report.problems.isEmpty)
    #expect(report.problems.count == Set(report.problems).count, "\(report.problems)")
    #expect(
      report.problems.joined().components(separatedBy: "error[").count == 2, "\(report.problems)")
  }

  /// Each test's expectations are read in its own store's words: a Google Play test's
  /// `share data only` with NEUTRAL is no clash in a file whose other tests are Apple's, and the
  /// Apple tests run too.
  @Test func eachStoresTestsAreReadInItsWordsInAFileOfBoth() throws {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests: """
        test "an App Store request never delivered"
          given delivery.status = UNDELIVERED_OTHER, usage.consumed = 50%
          expect do not respond

        test "a review barely used"
          store googlePlay
          given usage.consumed = 5%
          expect share data only, refundPreference = NEUTRAL
        """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(
      report.outcomes.map(\.name) == [
        "an App Store request never delivered", "a review barely used",
      ])
    #expect(report.passed, "\(report.render(explainer: nil))")
    // The JSON says which store's request each test described.
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(PolicyTestJSONReport([report]).jsonText().utf8))
        as? [String: Any])
    let results = try #require(
      (json["files"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    #expect(results.map { $0["store"] as? String } == ["appStore", "googlePlay"], "\(results)")
  }

  /// Google Play's `share data only` answers NEUTRAL: expected with NEUTRAL it is no clash, with
  /// another preference it is.
  @Test(arguments: [
    ("refund NEUTRAL", false), ("refundPreference = NEUTRAL", false), ("refund APPROVE", true),
  ])
  func googlesShareDataOnlyIsNeutralWhenExpectationsAreCompared(other: String, clashes: Bool)
    throws
  {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests:
        "store googlePlay\ntest \"t\"\n  given usage.consumed = 5%\n  expect share data only, \(other)\n"
    )
    #expect(report.problems.joined().contains("rules out") == clashes, "\(report.problems)")
  }

  /// `consumptionPercentageMilliunits` is Google's name for `consumptionPercentage`: expected
  /// under both names, one field is expected twice.
  @Test(arguments: [
    ("consumptionPercentage = 5%, consumptionPercentageMilliunits = 5000", true),
    ("consumptionPercentageMilliunits = 5000, consumptionPercentage = 5%", true),
    ("consumptionPercentage = 5%, sampleContentProvided = false", false),
  ])
  func aFieldExpectedUnderBothItsNamesIsExpectedTwice(expectations: String, twice: Bool) throws {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests:
        "store googlePlay\ntest \"t\"\n  given usage.consumed = 5%\n  expect \(expectations)\n"
    )
    let problems = report.problems.joined()
    #expect(
      problems.contains("by another name, and it is already expected") == twice, "\(problems)")
    #expect(report.problems.isEmpty == !twice, "\(problems)")
  }

  /// A problem in one store's tests stops the whole file, as in a file of one store: no test
  /// of the other store runs beside it.
  @Test func aProblemInOneStoresTestsStopsTheFile() throws {
    let report = try Self.run(
      policy: Self.sharedPolicy,
      tests: """
        test "an App Store request"
          expect share data only

        test "a review"
          store googlePlay
          given usage.consumd = 5%
          expect share data only
        """)
    #expect(report.problems.joined().contains("unknown fact 'usage.consumd'"), "\(report.problems)")
    #expect(report.outcomes.isEmpty)
    #expect(!report.passed)
  }

  @Test func theExampleGooglePlayPolicysTestsPass() throws {
    let path = DryRunFixture.repository.appendingPathComponent("examples/google-play/play.tests")
      .path
    let report = try PolicyTestRunner.run(testsPath: path)
    #expect(report.passed, "\(report.render(explainer: nil))")
    #expect(report.outcomes.count >= 5)
    #expect(report.coverage?.undecidedRules == [])
  }
}
