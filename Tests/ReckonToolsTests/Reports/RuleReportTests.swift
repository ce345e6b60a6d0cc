import Foundation
import ReckonState
import Testing

@testable import ReckonTools

/// The rules report: every rule of the live policies with what followed its decisions, the
/// rules that decided nothing listed with zeros, and the rules no policy has now listed apart.
struct RuleReportTests {
  static let source = RuleReport.Source(
    name: "p", version: "2", sha256: "abc", path: "p.policy",
    rules: ["heavy use", "never fires"])

  static func decision(
    _ rule: String, policy: String = "p", sha256: String? = nil, _ outcomes: [OutcomeType] = []
  ) -> DecidedOutcome {
    var decided = OutcomeReportOverTimeTests.decision(
      at: OutcomeReportOverTimeTests.monday, outcomes, rule: rule)
    if policy != "p" || sha256 != nil {
      decided = DecidedOutcome(
        receivedAt: decided.receivedAt, action: "respond", rule: rule, policyName: policy,
        body: nil, rawNotification: Data(), outboxState: nil, sentBody: nil, outcomes: outcomes,
        revocationType: nil, revocationPercentage: nil, summary: decided.summary,
        policySHA256: sha256)
    }
    return decided
  }

  @Test func aRuleThatNeverDecidedIsListedWithZeros() throws {
    let report = RuleReport(
      [Self.source],
      [
        Self.decision("heavy use", [.refundDeclined]), Self.decision("heavy use", [.refund]),
        Self.decision("otherwise"),
      ], since: nil, until: nil)
    let rules = try #require(report.policies.first?.rules)
    #expect(rules.map(\.name) == ["heavy use", "never fires", "otherwise"])
    #expect(rules.map(\.counts.decisions) == [2, 0, 1])
    #expect(rules[0].counts.refundRate == 0.5)
    #expect(rules[0].counts.money["EUR"]?.atStake == 20_000)
    #expect(rules[0].counts.money["EUR"]?.kept == 10_000)
    #expect(report.text().contains("1 of 3 rules decided nothing in the window"))
    #expect(report.csv().contains("p,never fires,true,0,0,0,0,0,0,,0,0,0.00,0.00"))
    #expect(report.html().contains("<tr class=\"dead\"><td>never fires</td>"))
  }

  /// The text has the reversed refunds the CSV and JSON have: a refund taken back is money kept.
  @Test func theTextCountsReversedRefunds() throws {
    let report = RuleReport(
      [Self.source], [Self.decision("heavy use", [.refund, .refundReversed])], since: nil,
      until: nil)
    let text = report.text()
    #expect(text.contains("  refunded  declined  reversed  no outcome"), "\(text)")
    let row = try #require(text.split(separator: "\n").first { $0.contains("heavy use") })
    let cells = row.split(separator: " ").map(String.init)
    // decisions, share, outcome, refunded, declined, reversed, no outcome
    #expect(
      Array(cells.drop { $0 != "use" }.dropFirst().prefix(7)) == [
        "1", "100.0%", "1", "1", "0", "1", "0",
      ])
  }

  @Test func rulesNoPolicyHasNowAreListedApart() {
    let report = RuleReport(
      [Self.source],
      [Self.decision("renamed rule"), Self.decision("heavy use", policy: "old policy")],
      since: nil, until: nil)
    #expect(
      report.retired.map { "\($0.policy): \($0.name)" } == [
        "old policy: heavy use", "p: renamed rule",
      ])
    #expect(report.policies.first?.decisions == 0)
    #expect(report.json().contains(#""notInPolicies":[{"policy":"old policy","rule":"heavy use""#))
    #expect(report.html().contains("id=\"not-in-policies\""))
  }

  @Test func policiesOfOneNameEachCountTheDecisionsTheirTextMade() throws {
    // A copy per app: the same `policy` name, different text.
    let other = RuleReport.Source(
      name: "p", version: "3", sha256: "def", path: "other.policy", rules: ["heavy use"])
    let byOther = Self.decision("heavy use", sha256: "def")
    let report = RuleReport(
      [Self.source, other],
      [Self.decision("heavy use", sha256: "abc"), byOther, byOther, Self.decision("heavy use")],
      since: nil, until: nil)
    // The last decision records no hash (an older state): it goes by name, to the first.
    #expect(report.policies.map(\.decisions) == [2, 2])
    #expect(report.retired.isEmpty)
  }

  @Test func importedRequestsAreLeftOut() {
    let imported = DecidedOutcome(
      receivedAt: OutcomeReportOverTimeTests.monday, action: DecidedOutcome.imported, rule: "",
      policyName: "", body: nil, rawNotification: Data(), outboxState: nil, sentBody: nil,
      outcomes: [.refund], revocationType: nil, revocationPercentage: nil)
    let report = RuleReport([Self.source], [imported], since: nil, until: nil)
    #expect(report.decisions == 0)
    #expect(report.retired.isEmpty)
  }
}
