import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

@testable import ReckonTools

/// A policy whose body breaks Apple's rules sends no reply to the requests it decides; every
/// output of the dry-run says so at the top and per row, rather than in a `skip` total.
struct AppleRulesSkipTests {
  static let source = """
    rule "prorate everything"
      when reason == UNSATISFIED_WITH_PURCHASE
      then refund GRANT_PRORATED
    """

  /// A count as the reports print it: 1,234.
  static func thousands(_ value: Int) -> String {
    let digits = String(value)
    return digits.enumerated().map { offset, digit in
      (offset > 0 && (digits.count - offset) % 3 == 0 ? "," : "") + String(digit)
    }.joined()
  }

  private func run() async throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    // A file of its own per test: tests run side by side in one fixture folder.
    return try await BulkDryRun(
      policy: try fixture.policy(
        source: Self.source, named: "prorate-everything-\(UUID().uuidString)"), against: nil,
      schema: fixture.setup.schema, layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
  }

  @Test func theTextSummarySaysHowManyGetNoReplyAndWhichRuleNearTheTop() async throws {
    let result = try await run()
    let summary = DryRunSummary(result)
    let skipped = try #require(summary.byOutcome[.skipAppleRules])
    #expect(skipped > 0)
    #expect(summary.breaksAppleRules == ["prorate everything": skipped])
    let lines = DryRunText.render(result, summary).split(separator: "\n").map(String.init)
    #expect(
      lines[1]
        == "\(Self.thousands(skipped)) requests would get no reply: the body breaks Apple's rules "
        + "(rule 'prorate everything')", "\(lines.prefix(4))")
    let message = AppleRuleViolation.grantProratedConsumptionPercentage.message
    #expect(lines[2].hasPrefix("  \(Self.thousands(skipped)): \(message)"), "\(lines[2])")
  }

  @Test func jsonAndHTMLSayItToo() async throws {
    let result = try await run()
    let summary = DryRunSummary(result)
    let skipped = try #require(summary.byOutcome[.skipAppleRules])
    var json = ""
    DryRunRows.json(result, summary) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let apple = try #require(
      (object["summary"] as? [String: Any])?["breaksAppleRules"] as? [String: Any])
    #expect(apple["requests"] as? Int == skipped)
    #expect(apple["byRule"] as? [String: Int] == ["prorate everything": skipped])
    #expect(
      apple["byAppleRule"] as? [String: Int] == ["GrantProratedConsumptionPercentageError": skipped]
    )
    let html = HTMLReport.dryRun(result, summary)
    #expect(
      html.contains(
        "<b id=\"breaks-apple-rules\">\(Self.thousands(skipped))</b> requests would get no reply: "
          + "the body breaks Apple's rules (rule 'prorate everything')"))
    let totals = try #require(html.range(of: "class=\"totals\""))
    let headline = try #require(html.range(of: "breaks-apple-rules"))
    let firstTable = try #require(html.range(of: "<table>"))
    #expect(totals.lowerBound < headline.lowerBound && headline.lowerBound < firstTable.lowerBound)
  }

  @Test func eachSkippedRowSaysWhichAppleRuleItBreaks() async throws {
    let result = try await run()
    let message = AppleRuleViolation.grantProratedConsumptionPercentage.message
    var csv = ""
    DryRunRows.csv(result) { csv += $0 }
    let skipped = csv.split(separator: "\n").filter { $0.contains(",skip,") }
    let apple = skipped.filter { $0.contains("breaks Apple's rules") }
    #expect(!apple.isEmpty)
    #expect(
      apple.allSatisfy {
        $0.contains("breaks Apple's rules: \(message)")
          && !$0.contains("GrantProratedConsumptionPercentageError")
      }, "\(apple.first ?? "")")
    var json = ""
    DryRunRows.json(result, DryRunSummary(result)) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let requests = try #require(object["requests"] as? [[String: Any]])
    let reasons = requests.compactMap { ($0["decision"] as? [String: Any])?["reason"] as? String }
      .filter { $0.contains("Apple's rules") }
    #expect(reasons.count == apple.count)
    #expect(reasons.allSatisfy { $0.contains(message) })
  }

  @Test func aPolicyWithinApplesRulesHasNoSuchLine() async throws {
    let fixture = try DryRunFixture.shared()
    let result = try await fixture.bulkRun("targeted")
    let summary = DryRunSummary(result)
    #expect(summary.breaksAppleRules.isEmpty)
    #expect(!DryRunText.render(result, summary).contains("would get no reply"))
    #expect(!HTMLReport.dryRun(result, summary).contains("breaks-apple-rules"))
  }
}

extension AppleRulesSkipTests {
  /// A percentage worked out beyond Apple's range: each row, CSV and JSON, says what the body
  /// held, as the decision's reason does.
  @Test func aRowWhosePercentageIsOutOfRangeSaysWhatTheBodyHeld() async throws {
    let fixture = try DryRunFixture.shared()
    let result = try await BulkDryRun(
      policy: try fixture.policy(
        source: """
          rule "triple"
            when product.type == CONSUMABLE and delivery.status == DELIVERED and usage.consumed > 50%
            then refund DECLINE, set consumptionPercentage = usage.consumed * 3
          otherwise share data only
          """, named: "triple-\(UUID().uuidString)"), against: nil,
      schema: fixture.setup.schema, layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
    var csv = ""
    DryRunRows.csv(result) { csv += $0 }
    let rows = csv.split(separator: "\n").filter { $0.contains("ConsumptionPercentageOutOfRange") }
    #expect(!rows.isEmpty)
    #expect(rows.allSatisfy { $0.contains("The body had ") }, "\(rows.first ?? "")")
    var json = ""
    DryRunRows.json(result, DryRunSummary(result)) { json += $0 }
    #expect(json.contains("The body had "))
  }
}
