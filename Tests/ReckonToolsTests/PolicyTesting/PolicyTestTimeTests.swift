import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// Times in tests files: a whole day reads as midnight UTC, as the date options read it, and a
/// unit without a fixed length gets the hint a policy gets.
struct PolicyTestTimeTests {
  static func run(_ tests: String) throws -> PolicyTestFileReport {
    try PolicyTestRunnerTests.run(tests)
  }

  @Test func aWholeDayIsMidnightUTC() throws {
    // "recent" decides when the purchase is less than a day before now.
    let report = try Self.run(
      """
      given now = "2026-01-10T12:00:00Z"

      test "the same day, twelve hours before now"
        given purchase.date = "2026-01-10"
        expect rule "recent"

      test "the day before, thirty-six hours before now"
        given purchase.date = "2026-01-09"
        expect otherwise

      test "now as a whole day"
        given now = "2026-01-11", purchase.date = "2026-01-10T00:00:01Z"
        expect rule "recent"
      """)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.passed, "\(report.outcomes.flatMap(\.failures))")
  }

  @Test func aTimeWithoutAZoneIsRefusedWithTheFix() throws {
    let report = try Self.run(
      """
      test "no zone"
        given purchase.date = "2026-01-10T09:30"
        expect otherwise
      """)
    #expect(
      report.problems.joined().contains("'2026-01-10T09:30' has no time zone"),
      "\(report.problems)")
  }

  @Test(arguments: ["purchase.date = 3 months ago", "customer.account_age = 3 months"])
  func aMonthGetsTheHintAPolicyGets(_ given: String) throws {
    let report = try Self.run(
      """
      test "months"
        given \(given)
        expect otherwise
      """)
    #expect(
      report.problems.joined().contains("a month has no fixed length: write days, as in 30 days"),
      "\(report.problems)")
  }
}
