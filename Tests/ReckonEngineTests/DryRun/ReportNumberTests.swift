import Foundation
import Testing

@testable import ReckonEngine

/// Numbers in the reports: shares of one total add up to 100.0%, rules that tie are listed in
/// the policy's order, and every count has thousands separators.
struct ReportNumberTests {
  struct SharesCase: CustomTestStringConvertible, Sendable {
    let counts: [Int]
    let total: Int
    let tenths: [Int]
    var testDescription: String { "\(counts) of \(total)" }
  }

  static let sharesCases = [
    // Rounded one by one: 83.8% + 16.1% = 99.9%.
    SharesCase(counts: [1_677, 323], total: 2_000, tenths: [839, 161]),
    SharesCase(counts: [1, 1, 1], total: 3, tenths: [334, 333, 333]),
    SharesCase(counts: [2, 2, 2, 0], total: 6, tenths: [334, 333, 333, 0]),
    // The counts cover part of the total: the rest rounds with them, and keeps its part.
    SharesCase(counts: [1, 1], total: 3, tenths: [334, 333]),
    SharesCase(counts: [531, 469, 454, 223], total: 2_000, tenths: [266, 235, 227, 111]),
    SharesCase(counts: [0, 0], total: 0, tenths: [0, 0]),
  ]

  @Test(arguments: sharesCases)
  func sharesOfOneTotalAddUpByLargestRemainder(_ example: SharesCase) {
    let tenths = CountTable.tenths(example.counts, of: example.total)
    #expect(tenths == example.tenths)
    if example.counts.reduce(0, +) == example.total, example.total > 0 {
      #expect(tenths.reduce(0, +) == 1000)
    }
    for (count, share) in zip(example.counts, tenths) where example.total > 0 {
      #expect(abs(Double(share) - 1000 * Double(count) / Double(example.total)) < 1)
    }
  }

  /// The text summary of the shipped targeted policy over the 2,000 requests `reckon generate
  /// --count 2000` writes, by section title.
  private func sections() async throws -> [String: [String]] {
    let fixture = try DryRunFixture.shared(count: 2_000, seed: 1)
    let result = try await BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
    var sections: [String: [String]] = [:]
    var title = ""
    for line in DryRunText.render(result, DryRunSummary(result)).split(separator: "\n") {
      if line.hasPrefix("  ") {
        sections[title, default: []].append(String(line))
      } else {
        title = String(line)
      }
    }
    return sections
  }

  @Test func theSharesOfActionsAndOfRulesAddUpTo100() async throws {
    let sections = try await sections()
    for title in ["By action", "By deciding rule"] {
      let lines = try #require(sections[title])
      let tenths = lines.map { line in
        let share = line.split(separator: " ").last!.dropLast()
        return Int(share.replacingOccurrences(of: ".", with: ""))!
      }
      #expect(tenths.reduce(0, +) == 1000, "\(title): \(lines)")
    }
  }

  @Test func rulesThatTieAreListedInThePolicysOrder() async throws {
    let lines = try #require(try await sections()["By deciding rule"])
    func position(_ rule: String) throws -> Int {
      try #require(lines.firstIndex { $0.hasPrefix("  \(rule) ") }, "\(rule) in \(lines)")
    }
    // Both decided nothing; the policy has "grant in full" first.
    #expect(try position("support: grant in full") < position("support: do not respond"))
    #expect(lines.contains { $0.hasPrefix("  support: do not respond ") && $0.hasSuffix(" 0.0%") })
  }

  @Test func theOutcomesReportGroupsThousands() {
    let body = Data(
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"DECLINE"}"#
        .utf8)
    let raw = Data(
      #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"x","signedDate":1790000000000,"data":{"environment":"Production","bundleId":"com.example.coins","consumptionRequestReason":"OTHER","signedTransactionInfo":{"transactionId":"1","type":"Consumable","bundleId":"com.example.coins"}}}"#
        .utf8)
    let decision = DecidedOutcome(
      receivedAt: Date(timeIntervalSince1970: 1_790_000_000), action: "respond", rule: "r",
      policyName: "p", body: body, rawNotification: raw, outboxState: "sent", sentBody: body,
      outcomes: [.refundDeclined], revocationType: nil, revocationPercentage: nil)
    let text = OutcomeReport(Array(repeating: decision, count: 12_345)).text()
    #expect(text.hasPrefix("12,345 decisions, 12,345 with an outcome,"), "\(text)")
    let row = text.split(separator: "\n").first { $0.hasPrefix("  DECLINE ") }
    #expect(row?.contains("   12,345   12,345         0    12,345") == true, "\(row ?? "")")
  }
}
