import Testing

@testable import ReckonPolicy

/// A percent worked out from constants is held to 0% to 100% where it is used as a percent, as a
/// literal is; a percent computed from facts is only known at run time.
struct PercentRangeTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let policy: String
    /// The text the error underlines.
    let underlined: String
    let comesTo: String
    var testDescription: String { policy }
  }

  static let cases: [Case] = [
    Case(
      policy: "rule \"r\" when usage.consumed < 50% + 60% then refund DECLINE",
      underlined: "50% + 60%", comesTo: "110%"),
    Case(
      policy: "rule \"r\" when usage.consumed > -5% then refund DECLINE",
      underlined: "-5%", comesTo: "-5%"),
    Case(
      policy: "rule \"r\" when 50% + 60% > 0% then refund DECLINE",
      underlined: "50% + 60%", comesTo: "110%"),
    Case(
      policy: "rule \"r\" when max(usage.consumed, 50% + 60%) > 90% then refund DECLINE",
      underlined: "50% + 60%", comesTo: "110%"),
    Case(
      policy: "rule \"r\" when usage.consumed in [10%, 0% - 10%] then refund DECLINE",
      underlined: "0% - 10%", comesTo: "-10%"),
    // Each member is compared with the value on its own: a difference beside it does not excuse it.
    Case(
      policy:
        "rule \"r\" when usage.consumed in [usage.consumed - 5%, 0% - 5%] then refund DECLINE",
      underlined: "0% - 5%", comesTo: "-5%"),
    Case(
      policy:
        "rule \"r\" when reason == LEGAL then refund DECLINE, set consumptionPercentage = max(usage.consumed, 50% + 60%)",
      underlined: "50% + 60%", comesTo: "110%"),
    Case(
      policy:
        "otherwise refund DECLINE, set consumptionPercentage = min(usage.consumed, 10% - 20%)",
      underlined: "10% - 20%", comesTo: "-10%"),
    Case(
      policy: "let big = 50% + 60%\nrule \"r\" when usage.consumed < big then refund DECLINE",
      underlined: "big", comesTo: "110%"),
    Case(
      policy: "let half = 50%\nrule \"r\" when usage.consumed < half * 3 then refund DECLINE",
      underlined: "half * 3", comesTo: "150%"),
  ]

  @Test(arguments: cases)
  func aConstantPercentOutsideTheRangeIsOneErrorWhereItIsWorkedOut(_ example: Case) throws {
    let result = TestSchema.load(example.policy + "\n")
    let errors = result.diagnostics.filter(\.isError)
    #expect(errors.count == 1, "\(result.renderedDiagnostics())")
    let error = try #require(errors.first)
    #expect(error.id == .percentOutOfRange)
    #expect(
      error.message == "a percentage is between 0% and 100%, but this comes to \(example.comesTo)")
    #expect(result.source.text(of: error.span) == example.underlined)
  }

  @Test(arguments: [
    "-(-5%) == 5%", "usage.consumed < (50% + 60%) - 20%", "usage.consumed - 10% > 0%",
    "usage.consumed * 2 > 100%", "max(usage.consumed, 100% - 0%) >= 0%",
    // Beside arithmetic a constant is arithmetic too: a difference may be negative.
    "usage.consumed - 50% > -10%", "usage.consumed - 50% > 0% - 10%",
    "max(usage.consumed - 50%, -10%) > 0%", "usage.consumed + 100% * 2 > 90%",
    "usage.consumed - 50% > min(-10%, -20%)", "usage.consumed - 50% > round(-5%)",
    "usage.consumed - 50% in [min(-10%, 5%)]",
  ])
  func percentsThatEndInTheRangeOrComeFromFactsLoad(_ condition: String) {
    let result = TestSchema.load("rule \"r\" when \(condition) then refund DECLINE\n")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
  }

  /// A mistake is one error, where its value is used, however many calls and lets it passes
  /// through.
  @Test(arguments: [
    "rule \"r\" when round(0% - 5%) < usage.consumed then refund DECLINE\n",
    "let a = 0% - 10%\nlet b = min(a, 10%)\nrule \"r\" when usage.consumed > b then refund DECLINE\n",
  ])
  func aConstantPercentOutsideTheRangeIsReportedOnce(_ policy: String) {
    let result = TestSchema.load(policy)
    let errors = result.diagnostics.filter(\.isError)
    #expect(errors.count == 1, "\(result.renderedDiagnostics())")
    #expect(errors.first?.id == .percentOutOfRange)
  }

  @Test func aLetHoldingANegativePercentServesArithmetic() {
    let result = TestSchema.load(
      "let floor = -10%\nrule \"r\" when usage.consumed - 50% > floor then refund DECLINE\n")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
  }
}
