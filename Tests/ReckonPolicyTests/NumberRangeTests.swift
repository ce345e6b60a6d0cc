import Testing

@testable import ReckonPolicy

/// A number literal a double cannot hold is an error where it is written: one that would be
/// infinite, and one whose nonzero digits would read as 0.
struct NumberRangeTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let literal: String
    let message: String
    var testDescription: String { name }
  }

  static let tooLarge = "1" + String(repeating: "0", count: 320)
  static let tooSmall = "0." + String(repeating: "0", count: 330) + "1"

  static let cases: [Case] = [
    Case(
      name: "a 321-digit number", literal: tooLarge,
      message: "this number is too large to be represented"),
    Case(
      name: "a 321-digit percent", literal: tooLarge + "%",
      message: "this number is too large to be represented"),
    Case(
      name: "a 321-digit count of days", literal: tooLarge + " days",
      message: "this number is too large to be represented"),
    Case(
      name: "a number whose digits underflow to 0", literal: tooSmall,
      message: "this number is too small to be represented: it would read as 0"),
    Case(
      name: "a percent whose digits underflow to 0", literal: tooSmall + "%",
      message: "this number is too small to be represented: it would read as 0"),
    Case(
      name: "a duration too long in seconds",
      literal: "1" + String(repeating: "0", count: 305)
        + " weeks",
      message: "this duration is too long to be represented"),
  ]

  @Test(arguments: cases)
  func aLiteralADoubleCannotHoldIsOneError(_ example: Case) {
    let result = TestSchema.load(
      "rule \"a\" when customer.refunds_last_90_days > 1 and usage.consumed > \(example.literal)\n"
        + "  then refund DECLINE\nrule \"b\" when reason == LEGALL then refund DECLINE\n")
    let errors = result.diagnostics.filter(\.isError)
    // The rest of the file is still checked: the next rule's error is reported too.
    #expect(
      errors.map(\.id) == [.invalidNumber, .unknownEnumValue], "\(result.renderedDiagnostics())")
    #expect(errors.first?.message == example.message)
    #expect(errors.first?.hint?.contains("1.8 × 10^308") == true)
  }

  @Test func theErrorPointsAtTheNumberWithFileLineColumnAndCaret() {
    let result = TestSchema.load(
      "rule \"a\"\n  when customer.refunds_last_90_days > 1" + String(repeating: "0", count: 310)
        + "\n  then refund DECLINE\n", path: "big.policy")
    let rendered = result.renderedDiagnostics()
    #expect(
      rendered.hasPrefix(
        "big.policy:2:40: error[P0109]: this number is too large to be represented\n"),
      "\(rendered)")
    #expect(rendered.contains("|                                        ^~~~"), "\(rendered)")
    #expect(
      rendered.hasSuffix(
        "= numbers other than 0 range from about 4.9 × 10^-324 to 1.8 × 10^308 in size\n"))
  }

  @Test(arguments: [
    "0." + String(repeating: "0", count: 300) + "1", "1" + String(repeating: "0", count: 300),
    "0.000", "0",
  ])
  func numbersADoubleHoldsStillLoad(_ literal: String) {
    let result = TestSchema.load(
      "rule \"a\" when customer.refunds_last_90_days > \(literal) then refund DECLINE\n")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
  }
}
