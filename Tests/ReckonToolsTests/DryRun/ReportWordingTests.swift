import Foundation
import ReckonEngine
import ReckonState
import Testing

@testable import ReckonTools

/// The reports people read use the policy language's words (`share data only`, no preference)
/// and keep "outcome" for Apple's refund result; the JSON keeps the keys it always had.
struct ReportWordingTests {
  static let source = """
    rule "legal review"
      when reason == LEGAL
      then share data only, hold for review

    otherwise share data only
    """

  private func run(against: String? = nil) async throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    return try await BulkDryRun(
      policy: try fixture.policy(source: Self.source, named: "data-only-\(UUID().uuidString)"),
      against: try against.map(fixture.policy), schema: fixture.setup.schema,
      layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
  }

  @Test(arguments: [1, 2])
  func theHeadingCountsRequestsInTheRightNumber(_ count: Int) async throws {
    let fixture = try DryRunFixture.shared()
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").prefix(count)
    let path = fixture.folder + "/first-\(count)-\(UUID().uuidString).jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let result = try await BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: try fixture.layers()
    ).run(RequestLines(path: path))
    let heading = DryRunText.render(result, DryRunSummary(result)).split(separator: "\n").first
    #expect(
      heading?.hasSuffix(count == 1 ? " over 1 request" : " over 2 requests") == true,
      "\(heading ?? "")")
  }

  @Test func dryRunTextSaysShareDataOnlyAndNoPreference() async throws {
    let result = try await run()
    let summary = DryRunSummary(result)
    let text = DryRunText.render(result, summary)
    #expect(text.contains("respond share data only "), "\(text)")
    #expect(text.contains("hold share data only "), "\(text)")
    let lines = text.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("  no preference (share data only) ") }, "\(text)")
    #expect(!text.contains("respond data only") && !text.contains("hold data only"), "\(text)")
    #expect(!lines.contains { $0.hasPrefix("  none ") }, "\(text)")
  }

  /// The preference section counts answers only (skips carry no preference), so its shares are
  /// of those answers and add up to 100%, not to the share of requests answered.
  @Test func preferenceSharesAreOfTheAnswersAndAddUpToAHundred() async throws {
    let fixture = try DryRunFixture.shared()
    let result = try await fixture.bulkRun("targeted")
    let summary = DryRunSummary(result)
    #expect(summary.byPreference.values.reduce(0, +) < summary.decided, "no skips to leave out")
    let lines = DryRunText.render(result, summary).split(
      separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("By preference") })
    let rows = lines[(start + 1)...].prefix { !$0.isEmpty }
    let shares = rows.compactMap { row in
      row.split(separator: " ").last.flatMap { Double($0.dropLast()) }
    }
    #expect(shares.count == rows.count && !shares.isEmpty, "\(rows)")
    #expect(abs(shares.reduce(0, +) - 100) < 0.5, "\(rows)")
  }

  /// The changed requests' times are cut to the minute, so the heading names their zone.
  @Test func theChangedRequestsTableSaysItsTimesAreUTC() async throws {
    let result = try await run(against: "targeted")
    let html = HTMLReport.dryRun(result, DryRunSummary(result))
    #expect(html.contains("<th>received (UTC)</th>"))
  }

  @Test func dryRunJSONKeepsItsKeys() async throws {
    let result = try await run(against: "targeted")
    var json = ""
    DryRunRows.json(result, DryRunSummary(result)) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    #expect((summary["byOutcome"] as? [String: Int])?["respond data only"] != nil)
    #expect((summary["byOutcome"] as? [String: Int])?["hold data only"] != nil)
    #expect((summary["byPreference"] as? [String: Int])?["none"] != nil)
    let changes = try #require(summary["changes"] as? [[String: Any]])
    #expect(changes.contains { $0["from"] as? String == "respond data only" })
  }

  @Test func dryRunHTMLCallsOurAnswersAnswersNotOutcomes() async throws {
    let result = try await run(against: "targeted")
    let summary = DryRunSummary(result)
    let html = HTMLReport.dryRun(result, summary)
    #expect(html.contains("Answers by action"))
    #expect(html.contains("Answers by reason") && html.contains("Answers by product type"))
    #expect(!html.lowercased().contains("outcome"), "dry-run answers called outcomes")
    #expect(html.contains(">respond share data only<"))
    let text = DryRunText.render(result, summary)
    #expect(text.contains("  answer  ") && !text.contains("  outcome  "), "\(text)")
  }

  @Test func outcomesReportSaysNoPreferenceInTextAndHTMLAndNoneInJSON() {
    let body = Data(
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
        .utf8)
    let raw = Data(
      #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"x","signedDate":1790000000000,"data":{"environment":"Production","bundleId":"com.example.coins","consumptionRequestReason":"OTHER","signedTransactionInfo":{"transactionId":"1","type":"Consumable","bundleId":"com.example.coins"}}}"#
        .utf8)
    let report = OutcomeReport([
      DecidedOutcome(
        receivedAt: Date(timeIntervalSince1970: 1_790_000_000), action: "respond", rule: "r",
        policyName: "p", body: body, rawNotification: raw, outboxState: "sent", sentBody: body,
        outcomes: [.refund], revocationType: "REFUND_FULL", revocationPercentage: nil)
    ])
    #expect(report.byPreference["none"]?.decisions == 1)
    let lines = report.text().split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("  no preference (share data only) ") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("  none ") })
    #expect(report.html().contains("<td>no preference (share data only)</td>"))
    #expect(report.json().contains(#""byPreference":{"none":"#))
  }
}
