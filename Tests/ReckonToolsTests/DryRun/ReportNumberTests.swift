import Foundation
import ReckonState
import ReckonSupport
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// Numbers in the reports: shares of one total add up to 100.0% (equal counts alike), rules that tie are listed in
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
    // Equal counts show equal shares, even when the shares then fall short of 100.0%.
    SharesCase(counts: [1, 1, 1], total: 3, tenths: [333, 333, 333]),
    SharesCase(counts: [2, 2, 2, 0], total: 6, tenths: [333, 333, 333, 0]),
    SharesCase(counts: [1_950, 11, 11, 28], total: 2_000, tenths: [975, 5, 5, 14]),
    SharesCase(counts: [7, 7, 1], total: 15, tenths: [467, 467, 66]),
    // The counts cover part of the total: the rest rounds with them, and keeps its part.
    SharesCase(counts: [1, 1], total: 3, tenths: [333, 333]),
    SharesCase(counts: [531, 469, 454, 223], total: 2_000, tenths: [266, 235, 227, 111]),
    SharesCase(counts: [0, 0], total: 0, tenths: [0, 0]),
  ]

  @Test(arguments: sharesCases)
  func sharesOfOneTotalAddUpByLargestRemainder(_ example: SharesCase) {
    let tenths = CountTable.tenths(example.counts, of: example.total)
    #expect(tenths == example.tenths)
    if example.counts.reduce(0, +) == example.total, example.total > 0 {
      #expect((1000 - example.counts.count + 1...1000).contains(tenths.reduce(0, +)))
      if Set(example.counts).count == example.counts.count {
        #expect(tenths.reduce(0, +) == 1000, "distinct counts add up exactly")
      }
    }
    for (one, other) in zip(example.counts, tenths) {
      for (count, share) in zip(example.counts, tenths) where count == one {
        #expect(share == other, "equal counts, equal shares")
      }
    }
    for (count, share) in zip(example.counts, tenths) where example.total > 0 {
      #expect(abs(Double(share) - 1000 * Double(count) / Double(example.total)) < 1)
    }
  }

  /// A CSV field holding a separator, a quote or any line break is quoted; "\r\n" is one
  /// Character in Swift, equal to neither "\n" nor "\r", and went out bare, splitting the row.
  @Test(arguments: [
    ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"x\"", "\"say \"\"x\"\"\""),
    ("X\r\nY", "\"X\r\nY\""), ("X\rY", "\"X\rY\""), ("X\nY", "\"X\nY\""),
  ])
  func csvFieldsWithSeparatorsQuotesOrLineBreaksAreQuoted(_ field: String, _ written: String) {
    #expect(DryRunRows.escape(field) == written)
  }

  /// A value from a requests file or a state database cannot retitle or colour the terminal,
  /// or forge a line of the report: its control characters are written out.
  /// A flag (black flag, tag letters, cancel tag) shows as a flag; a stray tag, invisible,
  /// is written out.
  @Test func aFlagStaysAndAStrayTagIsWrittenOut() {
    let flag = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    #expect(TerminalSafeText.shown("rule " + flag + "\u{1B}") == "rule " + flag + "\\u{1B}")
    #expect(TerminalSafeText.shown("vip\u{E0061}") == "vip\\u{E0061}")
  }

  @Test func controlCharactersInReportTextAreWrittenOut() {
    #expect(
      TerminalSafeText.shown("a\u{1B}]0;pwned\u{07}b\rc\u{9B}d\ne")
        == "a\\u{1B}]0;pwned\\u{7}b\\u{D}c\\u{9B}d\ne")
    #expect(TerminalSafeText.shown("plain, é 100%\n") == "plain, é 100%\n")
    let hostile = DecidedOutcome(
      receivedAt: Date(timeIntervalSince1970: 1_790_000_000), action: "respond",
      rule: "r\u{1B}[31mRED\nFAKE LINE", policyName: "p", body: nil, rawNotification: Data(),
      outboxState: nil, sentBody: nil, outcomes: [], revocationType: nil,
      revocationPercentage: nil)
    let text = OutcomeReport([hostile]).text()
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("\\u{1B}[31mRED\\u{A}FAKE LINE"), "one line, not two")
  }

  /// The text summary of the shipped targeted policy over the 2,000 requests `reckon generate
  /// --count 2000` writes, by section title.
  private func sections() async throws -> [String: [String]] {
    let fixture = try DryRunFixture.shared(count: 2_000, seed: 1)
    let result = try await fixture.bulkRun("targeted")
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

  /// Over the generated requests two rules decide 11 each: they read alike (both 0.5%), and
  /// the shares then add up to a tenth under 100.0%.
  @Test func theSharesOfActionsAndOfRulesAddUpTo100WithEqualCountsAlike() async throws {
    let sections = try await sections()
    for title in ["By action", "By deciding rule"] {
      let lines = try #require(sections[title])
      let rows = lines.map { line in
        let words = line.split(separator: " ")
        let share = words.last!.dropLast().replacingOccurrences(of: ".", with: "")
        let count = words[words.count - 2].replacingOccurrences(of: ",", with: "")
        return (count: Int(count)!, tenths: Int(share)!)
      }
      let sum = rows.map(\.tenths).reduce(0, +)
      #expect((1000 - rows.count...1000).contains(sum), "\(title): \(lines)")
      if Set(rows.map(\.count)).count == rows.count {
        #expect(sum == 1000, "\(title): \(lines)")
      }
      for row in rows {
        #expect(
          rows.allSatisfy { $0.count != row.count || $0.tenths == row.tenths }, "\(lines)")
      }
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
