import Foundation
import ReckonEngine
import Testing

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
      policyName: "p", body: body(preference), rawNotification: raw, sent: true, outcomes: outcomes,
      revocationType: revocation, revocationPercentage: percentage)
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

  @Test func generatedHistoryHasMoreRefundsWhereWeAskedForThem() async throws {
    let fixture = try DryRunFixture(count: 150, seed: 8)
    let path = fixture.folder + "/reckon-state.sqlite"
    _ = try await GeneratedHistory.write(
      fixture.generator, configuration: fixture.files.configuration, to: path)
    let report = OutcomeReport(try StateStore(path: path).decidedOutcomes(since: nil, until: nil))
    #expect(report.all.decisions == 150)
    #expect(report.all.withOutcome == 150)
    let grant = try #require(
      report.byPreference["GRANT_FULL"] ?? report.byPreference["GRANT_PRORATED"])
    let decline = try #require(report.byPreference["DECLINE"])
    #expect(grant.refundRate > decline.refundRate)
  }
}
