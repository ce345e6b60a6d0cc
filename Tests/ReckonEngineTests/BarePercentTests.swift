import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// A percentage written without its sign in a tests file is told what it was read as and what
/// was likely meant, when the file is read, not as a puzzling failure afterwards.
struct BarePercentTests {
  static func run(_ tests: String) throws -> PolicyTestFileReport {
    let loaded = PolicyLoader.load(
      SourceFile(
        path: "used.policy",
        text: "let used = usage.consumed\nrule \"r\" when used > 40% then refund DECLINE\n"),
      schema: FactSchema.standard.policySchema)
    return PolicyTestRunner(policy: try #require(loaded.policy)).run(
      SourceFile(path: "used.tests", text: tests))
  }

  @Test(arguments: [("50", "0.05%"), ("1", "0.001%"), ("100", "0.1%")])
  func aBareShareOfConsumptionPercentageSuggestsThePercent(_ bare: String, _ read: String) throws {
    let report = try Self.run(
      """
      test "t"
        given usage.consumed = 50%
        expect consumptionPercentage = \(bare)
      """)
    let problems = report.problems.joined()
    #expect(
      problems.contains(
        "used.tests:3:34: error[P0322]: consumptionPercentage = \(bare) is \(read)"),
      "\(problems)")
    #expect(
      problems.contains(
        "did you mean \(bare)%? a bare number is milliunits (\(bare) = \(read))"), "\(problems)")
  }

  @Test(arguments: ["0", "50000", "0.05%"])
  func milliunitsOutsideTheLikelySlipAreReadAsWritten(_ value: String) throws {
    let report = try Self.run(
      """
      test "t"
        given usage.consumed = 0.05%
        expect consumptionPercentage = \(value)
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
  }

  @Test(arguments: ["given usage.consumed = 50", "expect used = 50"])
  func aBareNumberForAPercentFactOrLetSuggestsThePercent(_ line: String) throws {
    let report = try Self.run("test \"t\"\n  \(line)\n  expect otherwise\n")
    let problems = report.problems.joined()
    #expect(problems.contains("'50' is not a percent: did you mean 50%?"), "\(problems)")
  }
}

extension BarePercentTests {
  /// A fraction is most likely a share written as one: 0.9 is offered as 90%, not 0.9%.
  @Test(arguments: [
    ("given usage.consumed = 0.9", "0.9", "90"), ("expect used = 0.9", "0.9", "90"),
    ("given usage.consumed = 0.07", "0.07", "7"),
  ])
  func aFractionForAPercentFactOrLetSuggestsItsPercentage(
    _ line: String, _ written: String, _ meant: String
  ) throws {
    let report = try Self.run("test \"t\"\n  \(line)\n  expect otherwise\n")
    let problems = report.problems.joined()
    #expect(
      problems.contains(
        "'\(written)' is not a percent: did you mean \(meant)%? a fraction is written as a percentage"
      ),
      "\(problems)")
  }
}
