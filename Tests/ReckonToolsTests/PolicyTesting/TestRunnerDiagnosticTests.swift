import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// The problems only `reckon test` finds, each under an id of its own: a test that gives a let,
/// a given value its fact cannot hold, an expected value no decision could produce.
struct TestRunnerDiagnosticTests {
  static let policyText = """
    let heavy = usage.consumed >= 80%
    rule "heavy use"
      when heavy
      then refund DECLINE
    otherwise share data only
    """

  static let examples: [(DiagnosticID, String)] = [
    (.givenLet, "test \"t\"\n  given heavy = true\n  expect otherwise\n"),
    (.invalidTestValue, "test \"t\"\n  given usage.consumed = lots\n  expect otherwise\n"),
    (.invalidExpectedValue, "test \"t\"\n  expect consumptionPercentage = 5\n"),
  ]

  @Test(arguments: examples)
  func aProblemOfATestIsReportedUnderItsOwnId(_ id: DiagnosticID, _ tests: String) throws {
    let loaded = PolicyLoader.load(
      SourceFile(path: "t.policy", text: Self.policyText), schema: FactSchema.standard.policySchema)
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let diagnostics = runner.prepare(SourceFile(path: "t.tests", text: tests)).diagnostics
    #expect(diagnostics.map(\.id) == [id], "\(diagnostics.map(\.message))")
    #expect(diagnostics.allSatisfy { $0.severity == $0.id.severity })
  }
}
