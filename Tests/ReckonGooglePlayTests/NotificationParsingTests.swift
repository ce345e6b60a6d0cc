import Foundation
import ReckonGooglePlay
import Testing

@Suite struct NotificationParsingTests {
  let eventTime = Date(timeIntervalSince1970: 1_796_000_000.123)

  @Test(arguments: [
    DeveloperNotification.Kind.pendingRefundReview(
      PendingRefundReviewNotification(
        pendingRefundToken: "prt", orderId: "GPA.1", refundReason: .friendlyFraud,
        obfuscatedAccountId: "acct", obfuscatedProfileId: "prof")),
    .voidedPurchase(
      VoidedPurchaseNotification(
        purchaseToken: "pt", orderId: "GPA.1", productType: .oneTime,
        refundType: .quantityBasedPartialRefund)),
    .oneTimeProduct(notificationType: 1, purchaseToken: "pt", sku: "coins_100"),
    .subscription(notificationType: 4, purchaseToken: "pt"),
    .test,
  ])
  func everyKindReadsBackAsWritten(kind: DeveloperNotification.Kind) throws {
    let notification = DeveloperNotification(
      packageName: "com.example.reckon", eventTime: eventTime, kind: kind)
    let push = PubSubPush(
      messageId: "42", data: notification.data(), subscription: "projects/p/subscriptions/s")
    let reread = try PubSubPush(body: push.body())
    #expect(reread == push)
    let decoded = try DeveloperNotification(data: reread.data)
    #expect(decoded.kind == kind)
    #expect(decoded.packageName == "com.example.reckon")
    #expect(abs(decoded.eventTime.timeIntervalSince(eventTime)) < 0.001)
  }

  @Test func googlesSampleEnvelopeIsRead() throws {
    let data =
      #"{"version":"1.0","packageName":"com.some.thing","eventTimeMillis":"1503349566168","pendingRefundReviewNotification":{"version":"1.0","pendingRefundToken":"tok","orderId":"GPA.0000-1111-2222-33333","refundReason":7}}"#
    let body =
      #"{"message":{"attributes":{"key":"value"},"data":"\#(Data(data.utf8).base64EncodedString())","message_id":"136969346945","publish_time":"2026-11-03T10:00:00Z"},"subscription":"projects/myproject/subscriptions/mysubscription"}"#
    let push = try PubSubPush(body: Data(body.utf8))
    #expect(push.messageId == "136969346945")
    #expect(push.attributes == ["key": "value"])
    let notification = try DeveloperNotification(data: push.data)
    #expect(notification.eventTime == Date(timeIntervalSince1970: 1_503_349_566.168))
    guard case .pendingRefundReview(let review) = notification.kind else {
      Issue.record("not a review: \(notification.kind)")
      return
    }
    #expect(review.orderId == "GPA.0000-1111-2222-33333")
    #expect(review.refundReason == .chargeback)
  }

  @Test func anUnknownReasonNumberIsKeptRaw() {
    #expect(GooglePlayRefundReason(number: 42) == .unrecognized(42))
    #expect(GooglePlayRefundReason(number: 42).number == 42)
    #expect(GooglePlayRefundReason(number: 42).name == "UNRECOGNIZED_42")
    #expect(GooglePlayRefundReason(number: 2).name == "NOT_RECEIVED")
  }

  @Test(arguments: [
    ("{", "the body is not a Pub/Sub push"),
    (#"{"subscription": "s"}"#, "no \"message\" object"),
    (#"{"message": {"data": "e30=", "messageId": "1"}}"#, "no \"subscription\" string"),
    (#"{"message": {"data": "e30="}, "subscription": "s"}"#, "the message has no messageId"),
    (
      #"{"message": {"data": "%%%", "messageId": "1"}, "subscription": "s"}"#,
      "\"data\" is not base64"
    ),
  ])
  func aBodyThatIsNoPushIsRefused(body: String, fragment: String) {
    #expect {
      try PubSubPush(body: Data(body.utf8))
    } throws: { error in
      (error as? GooglePlayPayloadError)?.description.contains(fragment) == true
    }
  }

  @Test(arguments: [
    (
      #"{"packageName": "p", "eventTimeMillis": "1", "testNotification": {}, "voidedPurchaseNotification": {}}"#,
      GooglePlayPayloadError.kindCount(2)
    ),
    (#"{"packageName": "p", "eventTimeMillis": "1"}"#, .kindCount(0)),
    (
      #"{"eventTimeMillis": "1", "testNotification": {}}"#,
      .badField(path: "packageName", reason: "is missing")
    ),
    (
      #"{"packageName": "p", "eventTimeMillis": "soon", "testNotification": {}}"#,
      .badField(path: "eventTimeMillis", reason: "\"soon\" is not a whole number")
    ),
    (
      #"{"packageName": "p", "eventTimeMillis": 1, "pendingRefundReviewNotification": {"pendingRefundToken": "t"}}"#,
      .badField(path: "pendingRefundReviewNotification.orderId", reason: "is missing")
    ),
    (
      #"{"packageName": "p", "eventTimeMillis": 1, "pendingRefundReviewNotification": {"pendingRefundToken": "", "orderId": "o"}}"#,
      .badField(path: "pendingRefundReviewNotification.pendingRefundToken", reason: "is empty")
    ),
  ])
  func aNotificationMissingWhatAReplyNeedsIsRefused(data: String, failure: GooglePlayPayloadError) {
    #expect(throws: failure) { try DeveloperNotification(data: Data(data.utf8)) }
  }
}
