import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

@testable import ReckonTools

/// Purchases Apple takes no consumption reply for (assigned by an organization, shared in a
/// family) are counted apart in a dry-run: no reply, with Apple's reason, and not blamed on the
/// rule that decided them.
struct UnanswerablePurchaseTests {
  /// The fixture's requests with every 50th line's purchase held as `ownership`.
  static func requests(held ownership: InAppOwnershipType) throws -> (String, Set<String>) {
    let fixture = try DryRunFixture.shared()
    var lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    var changed: Set<String> = []
    for index in stride(from: 0, to: lines.count, by: 50) {
      lines[index] = lines[index].replacingOccurrences(
        of: #""inAppOwnershipType":"PURCHASED""#,
        with: #""inAppOwnershipType":"\#(ownership.rawValue)""#)
      let uuid = try #require(lines[index].firstMatch(of: /"notificationUUID":"([^"]+)"/))
      changed.insert(String(uuid.1))
    }
    let path = fixture.folder + "/\(ownership.rawValue)-\(UUID().uuidString).jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return (path, changed)
  }

  @Test(arguments: [
    (InAppOwnershipType.assigned, AppleRuleViolation.invalidAssignedTransactionNotSupported),
    (.familyShared, .familyTransactionNotSupported),
  ])
  func theyGetNoReplyWithApplesReason(
    ownership: InAppOwnershipType, violation: AppleRuleViolation
  ) async throws {
    let fixture = try DryRunFixture.shared()
    let (path, changed) = try Self.requests(held: ownership)
    let result = try await BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: try fixture.layers()
    ).run(RequestLines(path: path))
    let rows = result.rows.filter { changed.contains($0.notificationUUID) }
    #expect(rows.count == changed.count)
    // Those the policy answers get no reply; the others skip for their own reason first.
    let unanswerable = rows.filter { $0.verdict?.outcome == .skipNotAnswerable }
    #expect(unanswerable.count > changed.count / 2)
    #expect(rows.allSatisfy { $0.verdict?.outcome.action == "skip" })
    let summary = DryRunSummary(result)
    #expect(summary.byOutcome[.skipNotAnswerable] == unanswerable.count)
    #expect(summary.breaksAppleRules.isEmpty)
    let text = DryRunText.render(result, summary)
    #expect(
      text.contains(
        "\(AppleRulesSkipTests.thousands(unanswerable.count)) requests get no reply: Apple takes none"
      ))
    var csv = ""
    DryRunRows.csv(result) { csv += $0 }
    let skipped = csv.split(separator: "\n").filter { $0.contains(violation.message) }
    #expect(skipped.count == unanswerable.count)
  }
}
