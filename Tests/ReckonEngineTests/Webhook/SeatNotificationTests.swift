import Foundation
import ReckonAppStore
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// The shapes of App Store Server API 1.23 and Notifications 2.23 (assigned purchases, multiseat
/// purchases, seat refunds, unclaimed seats), signed by the local test CA and answered by the
/// webhook as Apple would expect.
@Suite struct SeatNotificationTests {
  @Test func anAssignedPurchaseIsDecidedButNoReplyIsQueued() async throws {
    let fixture = try WebhookFixture()
    var request = SimulatedNotification()
    request.ownershipType = InAppOwnershipType.assigned.rawValue
    let answer = await fixture.service.answer(body: try fixture.body(request))
    #expect(answer.status == 200)
    #expect(answer.verdict == .decided)
    let fields = WebhookFixture.fields(answer)
    #expect(fields["action"] == "skip")
    #expect(fields["reason"]?.contains("InvalidAssignedTransactionNotSupportedError") == true)
    #expect(try fixture.store.entries().isEmpty)
  }

  @Test func aSeatRefundIsRecordedAsSeatsRefundedNeverAsARefund() async throws {
    let fixture = try WebhookFixture()
    var request = SimulatedNotification()
    request.productType = ProductType.autoRenewable.rawValue
    request.quantity = 10
    _ = await fixture.service.answer(body: try fixture.body(request))
    let seats = SimulatedNotification.seatRefund(revoked: 4, of: 10)
    let answer = await fixture.service.answer(body: try fixture.body(seats))
    #expect(answer.verdict == .outcome)
    #expect(try fixture.store.outcomes(requestId: 1) == [.seatsRefunded])
    let row = try #require(
      try fixture.store.connection.query(
        "SELECT type, revocation_percentage FROM outcomes WHERE notification_uuid = ?",
        [.text(seats.notificationUUID)]
      ).first)
    #expect(row.text(0) == "REFUND_SEATS")
    #expect(row.int(1) == 40_000)
  }

  @Test func aSeatRefundClosesTheRequestItAnswered() async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    _ = await fixture.service.answer(
      body: try fixture.body(SimulatedNotification.seatRefund(revoked: 1, of: 5)))
    let again = await fixture.service.answer(body: try fixture.body(SimulatedNotification()))
    #expect(again.verdict == .decided)
    #expect(try fixture.store.entries().count == 2)
  }

  @Test func aProratedRefundKeepsApplesRevocationTypeAndPercentage() async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    var refund = SimulatedNotification()
    refund.type = "REFUND"
    refund.revocationDate = Date().addingTimeInterval(-30)
    refund.revocationType = RevocationType.refundProrated.rawValue
    refund.revocationPercentage = 35_000
    #expect(await fixture.service.answer(body: try fixture.body(refund)).verdict == .outcome)
    let row = try #require(
      try fixture.store.connection.query(
        "SELECT revocation_type, revocation_percentage FROM outcomes WHERE notification_uuid = ?",
        [.text(refund.notificationUUID)]
      ).first)
    #expect(row.text(0) == "REFUND_PRORATED")
    #expect(row.int(1) == 35_000)
  }

  @Test func unclaimedSeatsAreAcknowledgedAndNeitherARequestNorARefund() async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    var unclaim = SimulatedNotification()
    unclaim.type = NotificationType.unclaimSeats.rawValue
    unclaim.unclaimSeatIds = ["9a1e5b0c-4a4f-4bfb-9d0b-1d5f4c1f2e3a"]
    let answer = await fixture.service.answer(body: try fixture.body(unclaim))
    #expect(answer.status == 200)
    #expect(try fixture.store.outcomes(requestId: 1).isEmpty)
    #expect(try fixture.store.entries().count == 1)
  }

  @Test func multiseatDetailsDecodeFromTheSignedTransaction() throws {
    let authority = try LocalCertificateAuthority()
    let seats = SimulatedNotification.seatRefund(revoked: 2, of: 8)
    let verifier = NotificationVerifier(
      apps: [
        .init(bundleId: "com.example.coins", appAppleId: 1_234_567_890, environment: .production)
      ],
      roots: [authority.root])
    let verified = try verifier.verify(body: try seats.body(signedBy: authority))
    #expect(verified.payload.subtype == .seats)
    let info = try #require(verified.transaction?.multiSeatInfo)
    #expect(info.revokedSeatQuantity == 2)
    #expect(info.invitationManagement == "APPLE")
    #expect(info.totalPrice == Int64(8 * 9_990))
    #expect(verified.transaction?.quantity == 8)
  }

  @Test(
    arguments: [
      ("REFUND", "SEATS", OutcomeType.seatsRefunded), ("REFUND", nil, .refund),
      ("REFUND_DECLINED", nil, .refundDeclined), ("UNCLAIM_SEATS", nil, .seatsUnclaimed),
    ] as [(String, String?, OutcomeType)])
  func outcomesAreNamedByTypeAndSubtype(type: String, subtype: String?, expected: OutcomeType) {
    #expect(OutcomeType(notificationType: type, subtype: subtype) == expected)
  }

  @Test func onlyRefundsAndDeclinesAreVerdicts() {
    #expect(OutcomeType.allCases.filter(\.isVerdict) == [.refund, .refundDeclined, .seatsRefunded])
    #expect(OutcomeType(notificationType: "DID_RENEW", subtype: nil) == nil)
  }
}
