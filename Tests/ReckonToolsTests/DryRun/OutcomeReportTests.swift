import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import Testing

@testable import ReckonStateSQLite
@testable import ReckonTools

/// The outcomes report: refund rates by preference sent, rule, reason and product type, from
/// decisions and the outcomes Apple reported for them.
struct OutcomeReportTests {
  private static func body(_ preference: String?) -> Data {
    let extra = preference.map { #","refundPreference":"\#($0)""# } ?? ""
    return Data(
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false\#(extra)}"#
        .utf8)
  }

  private static let raw = Data(
    #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"x","signedDate":1790000000000,"data":{"environment":"Production","bundleId":"com.example.coins","consumptionRequestReason":"UNINTENDED_PURCHASE","signedTransactionInfo":{"transactionId":"1","type":"Consumable","bundleId":"com.example.coins"}}}"#
      .utf8)

  private static func decision(
    _ preference: String?, _ outcomes: [OutcomeType], rule: String = "r", revocation: String? = nil,
    percentage: Int? = nil
  ) -> DecidedOutcome {
    DecidedOutcome(
      receivedAt: Date(timeIntervalSince1970: 1_790_000_000), action: "respond", rule: rule,
      policyName: "p", body: body(preference), rawNotification: raw, outboxState: "sent",
      sentBody: body(preference), outcomes: outcomes, revocationType: revocation,
      revocationPercentage: percentage)
  }

  /// A refund of some seats is an outcome of its own: the transaction stays valid, so it is
  /// neither a refund nor a decline, and the refund rate is not raised by it.
  @Test func aSeatRefundIsCountedApartFromRefunds() throws {
    let report = OutcomeReport([
      Self.decision("DECLINE", [.seatsRefunded], percentage: 40_000),
      Self.decision("DECLINE", [.refundDeclined]),
    ])
    let decline = try #require(report.byPreference["DECLINE"])
    #expect(decline.withOutcome == 2)
    #expect(decline.seatsRefunded == 1)
    #expect(decline.refunded == 0)
    #expect(decline.declined == 1)
    #expect(decline.refundRate == 0)
    #expect(report.json().contains(#""seatsRefunded":1"#))
    #expect(report.text().contains("seats"))
    #expect(report.html().contains("seats refunded"))
  }

  @Test func refundRateCountsOnlyDecisionsWhoseOutcomeArrived() {
    let report = OutcomeReport([
      Self.decision("GRANT_FULL", [.refund], revocation: "REFUND_FULL"),
      Self.decision("GRANT_FULL", [.refund, .refundReversed], revocation: "REFUND_FULL"),
      Self.decision("GRANT_FULL", [.refundDeclined]),
      Self.decision("GRANT_FULL", []),
      Self.decision("DECLINE", [.refundDeclined], rule: "heavy use"),
      Self.decision("GRANT_PRORATED", [.refund], revocation: "REFUND_PRORATED", percentage: 40_000),
    ])
    let full = report.byPreference["GRANT_FULL"]
    #expect(full?.decisions == 4)
    #expect(full?.withOutcome == 3)
    #expect(full?.refunded == 2)
    #expect(full?.reversed == 1)
    #expect(abs((full?.refundRate ?? 0) - 2.0 / 3.0) < 1e-9)
    #expect(report.byPreference["DECLINE"]?.refundRate == 0)
    #expect(report.byPreference["GRANT_PRORATED"]?.prorated == 1)
    #expect(report.byPreference["GRANT_PRORATED"]?.proratedMilliunits == 40_000)
    #expect(report.byRule["p: heavy use"]?.declined == 1)
    #expect(report.byReason["UNINTENDED_PURCHASE"]?.decisions == 6)
    #expect(report.byProductType["CONSUMABLE"]?.decisions == 6)
    #expect(report.all.withOutcome == 5)
    #expect(report.text().contains("GRANT_FULL"))
    #expect(report.json().contains(#""refundRate":0.6667"#))
    #expect(report.html().contains("<b id=\"with-outcome\">5</b>"))
  }

  /// A stored preference that already reads as the label "none" gets (a hand-edited database)
  /// is counted with it: building the labelled groups stopped the process on the duplicate key.
  @Test func aPreferenceStoredAsItsLabelIsMergedNotACrash() {
    let report = OutcomeReport([
      Self.decision(nil, [.refundDeclined]),
      Self.decision("no preference (share data only)", [.refund], revocation: "REFUND_FULL"),
    ])
    #expect(report.text().contains("no preference (share data only)"))
    #expect(report.json().contains(#""decisions":2"#))
  }

  @Test func aGroupWithoutOutcomesHasANullRateNotZero() throws {
    let report = OutcomeReport([
      Self.decision("DECLINE", [.refundDeclined]), Self.decision("GRANT_FULL", []),
    ])
    let waiting = try #require(report.byPreference["GRANT_FULL"])
    #expect(waiting.refundRate == nil)
    #expect(report.byPreference["DECLINE"]?.refundRate == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
    let byPreference = try #require(object["byPreference"] as? [String: [String: Any]])
    #expect(byPreference["GRANT_FULL"]?["refundRate"] is NSNull)
    #expect(byPreference["GRANT_FULL"]?["netRefundRate"] is NSNull)
    #expect(byPreference["DECLINE"]?["refundRate"] as? Double == 0)
    #expect(!report.html().contains(">GRANT_FULL</text>"), "no 0% bar for a group with no rate")
  }

  @Test func reversedRefundsCountAsRefundedAndTheNetRateLeavesThemOut() {
    let report = OutcomeReport([
      Self.decision("GRANT_FULL", [.refund], revocation: "REFUND_FULL"),
      Self.decision("GRANT_FULL", [.refund, .refundReversed], revocation: "REFUND_FULL"),
      Self.decision("GRANT_FULL", [.refundDeclined]),
      Self.decision("GRANT_FULL", [.refundDeclined]),
    ])
    #expect(report.all.refundRate == 0.5)
    #expect(report.all.netRefundRate == 0.25)
    #expect(
      report.text().hasPrefix(
        "4 decisions, 4 with an outcome, refund rate 50.0% (reversed refunds counted as refunded),"
          + " net refund rate 25.0% (reversed refunds left out)"))
    #expect(report.json().contains(#""refundRate":0.5000,"netRefundRate":0.2500"#))
    #expect(report.html().contains(#"<b id="net-rate">25.0%</b>"#))
  }

  @Test func longRuleNamesAreShownWholeUpToTheCapAndCutWithAnEllipsisBeyond() {
    let prefix = "customer asked for a refund within the first "
    let long = prefix + String(repeating: "very ", count: 10) + "long"
    let report = OutcomeReport([
      Self.decision("DECLINE", [.refundDeclined], rule: prefix + "hour"),
      Self.decision("DECLINE", [.refundDeclined], rule: prefix + "day"),
      Self.decision("DECLINE", [.refundDeclined], rule: long),
    ])
    let lines = report.text().split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("  p: \(prefix)hour ") })
    #expect(lines.contains { $0.hasPrefix("  p: \(prefix)day ") })
    let cut = lines.first { $0.hasPrefix("  p: \(prefix)very") }
    #expect(cut?.prefix(2 + 60).hasSuffix("…") == true, "\(cut ?? "")")
    #expect(cut?.contains("long") == false)
  }

  @Test func averageProratedPercentageIsShownInTextJSONAndHTML() {
    let report = OutcomeReport([
      Self.decision("GRANT_PRORATED", [.refund], revocation: "REFUND_PRORATED", percentage: 40_000),
      Self.decision("GRANT_PRORATED", [.refund], revocation: "REFUND_PRORATED", percentage: 60_000),
      // Without a percentage it counts as prorated but does not pull the average to 0.
      Self.decision("GRANT_PRORATED", [.refund], revocation: "REFUND_PRORATED"),
      Self.decision("GRANT_FULL", [.refund], revocation: "REFUND_FULL"),
    ])
    let prorated = report.byPreference["GRANT_PRORATED"]
    #expect(prorated?.prorated == 3)
    #expect(prorated?.averageProratedPercentage == 50)
    #expect(report.byPreference["GRANT_FULL"]?.averageProratedPercentage == nil)
    let text = report.text()
    #expect(text.contains("prorated refunds: 3, giving back 50.0% of the price on average"))
    let row = text.split(separator: "\n").first { $0.hasPrefix("  GRANT_PRORATED") }
    #expect(row?.contains("       50.0%") == true, "\(row ?? "")")
    #expect(report.json().contains(#""averageProratedPercentage":50.00"#))
    #expect(report.json().contains(#""averageProratedPercentage":null"#))
    #expect(report.html().contains(#"<b id="average-prorated">50.0%</b>"#))
    #expect(report.html().contains(#"<th class="n">avg prorated</th>"#))
  }

  /// Records a decision preferring `preference`, queued unless `skip`; returns the entry's id.
  private static func decide(
    _ store: SQLiteStateStore, transaction: String, _ preference: String, skip: Bool = false
  ) throws -> Int64? {
    let request = try store.recordNotification(
      StoredRecords.notification(transaction: transaction)
    ).requestId
    let decision = DecisionRecord(
      policyName: "p", policyVersion: nil, policySHA256: String(repeating: "a", count: 64),
      action: skip ? "skip" : "respond", rule: "r", reason: nil, body: body(preference),
      factsJSON: Data("[]".utf8), explanationJSON: nil, decidedAt: StoredRecords.start)
    return try store.recordDecision(
      decision, requestId: request,
      enqueue: skip ? nil : StoredRecords.enqueue(transaction: transaction, body: body(preference))
    ).entryId
  }

  @Test func preferenceSentIsTheBodyDeliveredNotTheBodyDecided() throws {
    let store = try StoredRecords.store()
    let start = StoredRecords.start
    let backoff = Backoff(initial: 30, maximum: 1_800, random: { 0 })
    // Decided GRANT_FULL, changed to DECLINE by `reckon queue set`, then sent.
    let changed = try #require(try Self.decide(store, transaction: "1", "GRANT_FULL"))
    try store.modifyEntry(id: changed, now: start) {
      (entry: inout OutboxEntry) throws(OutboxCommandRefused) in
      try entry.edit(body: Self.body("DECLINE"), now: start)
    }
    var entry = try store.entry(id: changed)
    _ = entry.poll(now: start)
    _ = entry.delivered(.answered(.init(status: 202)), now: start, backoff: backoff)
    try store.save(&entry, now: start)
    // Decided GRANT_FULL, never delivered before the deadline.
    let expired = try #require(try Self.decide(store, transaction: "2", "GRANT_FULL"))
    var late = try store.entry(id: expired)
    _ = late.poll(now: start.addingTimeInterval(13 * 3_600))
    try store.save(&late, now: start)
    // Decided GRANT_FULL and still waiting.
    _ = try Self.decide(store, transaction: "3", "GRANT_FULL")
    _ = try Self.decide(store, transaction: "4", "GRANT_FULL", skip: true)
    for (index, transaction) in ["1", "2", "3", "4"].enumerated() {
      try store.attachOutcome(
        .refund, notificationUUID: "outcome-\(index)", transactionId: transaction,
        occurredAt: start.addingTimeInterval(86_400))
    }

    let report = OutcomeReport(try store.decidedOutcomes(since: nil, until: nil))
    #expect(report.byPreference["DECLINE"]?.decisions == 1)
    #expect(report.byPreference["GRANT_FULL"] == nil)
    #expect(report.byPreference[OutcomeReport.notSent]?.refunded == 1)
    #expect(report.byPreference[OutcomeReport.notSentYet]?.decisions == 1)
    #expect(report.byPreference["not sent (skip)"]?.decisions == 1)
    #expect(report.text().contains(OutcomeReport.notSent))
  }

  @Test func generatedHistoryAnswersAreSentAsDecided() async throws {
    let fixture = try DryRunFixture(count: 80, seed: 3)
    let path = fixture.folder + "/reckon-state.sqlite"
    _ = try await GeneratedHistory.write(
      fixture.generator, configuration: fixture.files.configuration, to: path,
      state: SQLiteStateOpener())
    let decided = try SQLiteStateStore(path: path, rules: .appStore).decidedOutcomes(
      since: nil, until: nil)
    let answered = decided.filter { $0.action != "skip" }
    #expect(!answered.isEmpty)
    #expect(answered.allSatisfy { $0.sent && $0.sentBody == $0.body })
    #expect(decided.filter { $0.action == "skip" }.allSatisfy { $0.outboxState == nil })
    // Recorded as the sender records an accepted reply: Apple's 202, no failed attempt.
    let sent = try SQLiteStateStore(path: path, rules: .appStore).entries(states: ["sent"])
    #expect(!sent.isEmpty)
    #expect(sent.allSatisfy { $0.lastStatus == 202 && $0.attempts == 0 })
  }

  @Test func generatedHistoryHasMoreRefundsWhereWeAskedForThem() async throws {
    let fixture = try DryRunFixture(count: 150, seed: 8)
    let path = fixture.folder + "/reckon-state.sqlite"
    _ = try await GeneratedHistory.write(
      fixture.generator, configuration: fixture.files.configuration, to: path,
      state: SQLiteStateOpener())
    let report = OutcomeReport(
      try SQLiteStateStore(path: path, rules: .appStore).decidedOutcomes(since: nil, until: nil))
    #expect(report.all.decisions == 150)
    #expect(report.all.withOutcome == 150)
    let grant = try #require(
      report.byPreference["GRANT_FULL"] ?? report.byPreference["GRANT_PRORATED"])
    let decline = try #require(report.byPreference["DECLINE"])
    #expect(try #require(grant.refundRate) > #require(decline.refundRate))
  }
}
