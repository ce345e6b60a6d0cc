import Foundation
import ReckonGooglePlay
import Testing

@Suite struct ReviewRefundRuleTests {
  static func request(
    token: String = "prt", milliunits: Int? = nil, events: [ConsumptionUsageEvent]? = nil
  ) -> ReviewRefundRequest {
    ReviewRefundRequest(
      pendingRefundToken: token, sampleContentProvided: true, refundPreference: .neutral,
      consumptionPercentageMilliunits: milliunits, consumptionUsageEvents: events)
  }

  @Test(arguments: [
    (request(token: ""), GooglePlayRuleViolation.missingPendingRefundToken),
    (request(milliunits: 100_001), .consumptionOutOfRange(100_001)),
    (request(milliunits: -1), .consumptionOutOfRange(-1)),
    (
      request(events: Array(repeating: ConsumptionUsageEvent(), count: 1_001)),
      .tooManyUsageEvents(1_001)
    ),
    (
      request(events: [
        ConsumptionUsageEvent(consumptionItemDescription: String(repeating: "é", count: 5_001))
      ]), .descriptionTooLong(event: 0, characters: 5_001)
    ),
    (
      request(events: [
        ConsumptionUsageEvent(), ConsumptionUsageEvent(consumptionTime: "yesterday"),
      ]), .badConsumptionTime(event: 1, "yesterday")
    ),
    (
      request(events: [ConsumptionUsageEvent(ipAddress: "300.1.1.1")]),
      .badIPAddress(event: 0, "300.1.1.1")
    ),
    (
      request(events: [ConsumptionUsageEvent(location: CoarseLocation(regionCode: "usa"))]),
      .badRegionCode(event: 0, "usa")
    ),
  ])
  func anAnswerBreakingARuleIsNeverMadeSendable(
    request: ReviewRefundRequest, violation: GooglePlayRuleViolation
  ) {
    #expect(ReviewRefundValidator.violations(of: request) == [violation])
    guard case .failure(let rejection) = ReviewRefundValidator.validate(request) else {
      Issue.record("validated")
      return
    }
    #expect(rejection.violations == [violation])
  }

  @Test func theBoundsThemselvesAreAllowed() {
    let events = Array(
      repeating: ConsumptionUsageEvent(
        obfuscatedAccountId: "a", consumptionTime: "2026-11-03T10:15:30.250+01:00",
        ipAddress: "2001:db8::1", location: CoarseLocation(regionCode: "419"),
        consumptionItemDescription: String(repeating: "x", count: 5_000)), count: 1_000)
    for milliunits in [0, 100_000] {
      #expect(
        ReviewRefundValidator.violations(of: Self.request(milliunits: milliunits, events: events))
          .isEmpty)
    }
  }

  @Test func theBodyLeavesOutWhatIsNotSet() throws {
    guard case .success(let body) = ReviewRefundValidator.validate(Self.request()) else {
      Issue.record("refused")
      return
    }
    #expect(
      String(decoding: body.data, as: UTF8.self)
        == #"{"pendingRefundToken":"prt","refundPreference":"NEUTRAL","sampleContentProvided":true}"#
    )
  }

  @Test func aStoredBodyIsCheckedAgainWhenReadBack() throws {
    let stored = Data(
      #"{"pendingRefundToken":"prt","refundPreference":"NEUTRAL","sampleContentProvided":true,"consumptionPercentageMilliunits":200000}"#
        .utf8)
    guard case .failure(let rejection)? = ValidatedReviewRefund.revalidated(from: stored) else {
      Issue.record("accepted")
      return
    }
    #expect(rejection.violations == [.consumptionOutOfRange(200_000)])
    #expect(ValidatedReviewRefund.revalidated(from: Data("{}".utf8)) == nil)
  }
}
