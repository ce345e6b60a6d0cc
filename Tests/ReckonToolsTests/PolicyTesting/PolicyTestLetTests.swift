import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// Tests files and the policy's lets: a test checks a let's value with `expect`, and cannot give
/// one with `given`, since a let is computed from facts.
struct PolicyTestLetTests {
  static let policyText = """
    policy "targeted"
    let heavy = usage.consumed >= 80%
    let spent = customer.lifetime_spent
    let heavyAndOld = heavy and customer.account_age > 30 days
    rule "heavy use"
      when heavyAndOld
      then refund DECLINE
    otherwise share data only
    """

  static func run(_ tests: String) throws -> PolicyTestFileReport {
    let loaded = PolicyLoader.load(
      SourceFile(path: "targeted.policy", text: policyText),
      schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    return runner.run(SourceFile(path: "targeted.tests", text: tests))
  }

  @Test func expectingALetsValueComparesItAfterTheDecision() throws {
    let report = try Self.run(
      """
      test "heavy"
        given usage.consumed = 94%, customer.lifetime_spent = 12.5 USD
        expect heavy = true, spent = 12.50 USD, refund DECLINE
      test "light"
        given usage.consumed = 10%
        expect heavy = false, heavyAndOld = false
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  @Test func aLetWithTheWrongValueFailsSayingItsValue() throws {
    let report = try Self.run(
      """
      test "wrong"
        given usage.consumed = 10%
        expect heavy = true
      """)
    let failure = try #require(report.outcomes.first?.failures.first)
    #expect(failure.expected == "heavy = true")
    #expect(failure.actual == "heavy = false")
  }

  @Test func aLetOfAMissingFactIsUnknown() throws {
    let report = try Self.run(
      """
      test "unknown"
        given usage.consumed is missing
        expect heavy is missing
      test "known"
        expect heavy is missing
      """)
    #expect(report.outcomes.map(\.passed) == [true, false], "\(report.render(explainer: nil))")
    #expect(report.outcomes.last?.failures.first?.expected == "heavy is unknown")
    #expect(report.outcomes.last?.failures.first?.actual == "heavy = false")
  }

  @Test func anUnknownNameInAnExpectationSuggestsALet() throws {
    let report = try Self.run(
      """
      test "typo"
        expect heavvy = true
      """)
    let problems = report.problems.joined()
    #expect(
      problems.contains("unknown body field or let in targeted.policy 'heavvy'"), "\(problems)")
    #expect(problems.contains("did you mean 'heavy'?"), "\(problems)")
  }

  /// A named list has no value: expecting one is an error saying so, not that the value is
  /// not a boolean (the placeholder the list's slot holds).
  @Test func aNamedListHasNoValueToExpect() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "packs.policy",
        text:
          "let packs = [\"a\", \"b\"]\nrule \"p\" when product.id in packs then refund DECLINE\n"
          + "otherwise share data only\n"),
      schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let report = runner.run(
      SourceFile(path: "packs.tests", text: "test \"t\"\n  expect packs = \"a\"\n"))
    let problems = report.problems.joined()
    #expect(
      problems.contains("packs names a list for 'in', which has no value to expect"), "\(problems)")
    #expect(!problems.contains("boolean"), "\(problems)")
  }

  @Test func aLetsExpectedValueMustFitItsType() throws {
    let report = try Self.run(
      """
      test "bad value"
        expect heavy = 94%
      """)
    #expect(
      report.problems.joined().contains("heavy: '94%' is not a boolean"), "\(report.problems)")
  }

  @Test func givingALetIsAnErrorNamingTheFactsItIsComputedFrom() throws {
    let report = try Self.run(
      """
      test "given a let"
        given heavyAndOld = true
        expect refund DECLINE
      """)
    let problems = report.problems.joined()
    #expect(
      problems.contains(
        "targeted.tests:2:9: error[P0307]: 'heavyAndOld' is a let in targeted.policy, computed from "
          + "usage.consumed, customer.account_age; give those facts"), "\(problems)")
    #expect(problems.contains("to check its value, write: expect heavyAndOld = true"))
    #expect(report.outcomes.isEmpty)
  }

  /// A let may be named by a word a tests file gives meaning after `expect` (`share data only`,
  /// `hold for review`…): before `=` or `is` it names the let there too, as it does in the policy.
  @Test(arguments: ["share", "hold", "refund", "do", "no", "test", "given", "expect"])
  func aLetNamedLikeAnExpectationIsExpectedByItsName(_ name: String) throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "words.policy",
        text:
          "let \(name) = usage.consumed\nrule \"r\"\n  when \(name) > 50%\n  then refund DECLINE\n"
      ), schema: FactSchema.standard.policySchema)
    #expect(!loaded.hasErrors, "\(loaded.renderedDiagnostics())")
    let report = PolicyTestRunner(policy: try #require(loaded.policy)).run(
      SourceFile(
        path: "words.tests",
        text: """
          test "t"
            given usage.consumed = 20%
            expect \(name) = 20%, share data only
          test "u"
            given usage.consumed is missing
            expect \(name) is missing
          """))
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.render(explainer: nil))")
  }

  /// Only the word `is` makes a name of the word before it: a rule named "is" is a string, and
  /// `rule "is"` stays the rule expectation it was.
  @Test func aRuleNamedIsIsStillExpectedByName() throws {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "is.policy",
        text: "rule \"is\"\n  when usage.consumed > 50%\n  then refund DECLINE\n"),
      schema: FactSchema.standard.policySchema)
    let report = PolicyTestRunner(policy: try #require(loaded.policy)).run(
      SourceFile(
        path: "is.tests",
        text: """
          test "t"
            given usage.consumed = 80%
            expect refund DECLINE, rule "is"
          """))
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.render(explainer: nil))")
  }
}
