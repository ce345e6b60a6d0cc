import Foundation
import ReckonFacts
import ReckonState
import Testing

@testable import ReckonTools

/// A state's stored notifications read back by their store: Apple's on their own path, Google
/// Play's developer notifications as reviews with their recorded facts, and a Google Play
/// notification that is no review as a damaged record.
struct StoredReviewDecoderTests {
  static let review = Data(
    #"{"version": "1.0", "packageName": "com.example.coins", "eventTimeMillis": "1796000000000", "pendingRefundReviewNotification": {"version": "1.0", "pendingRefundToken": "t", "orderId": "GPA.1", "refundReason": 6, "obfuscatedAccountId": "Acct-7"}}"#
      .utf8)

  static let google = FactSchema.standard.schema(for: .googlePlay)

  @Test func aStoredReviewIsReadWithItsRecordedFactsByGooglesSchema() throws {
    let facts = Data(
      #"[{"name": "usage.consumed", "value": "40%", "source": "app-db"}, {"name": "product.type", "value": "CONSUMABLE"}]"#
        .utf8)
    let received = Date(timeIntervalSince1970: 1_796_000_100)
    let stored = StoredRequest(
      id: 7, rawNotification: Self.review, receivedAt: received, factsJSON: facts)
    guard
      case .googlePlay(let past) = try StoredRequestDecoder.decodeEntry(
        stored, schema: .standard, googlePlay: Self.google)
    else {
      Issue.record("not read as a Google Play review")
      return
    }
    #expect(past.origin == "request 7")
    #expect(past.review.review.orderId == "GPA.1")
    #expect(past.review.receivedAt == received)
    let recorded = try #require(past.recordedFacts)
    #expect(recorded.values["usage.consumed"] == .percent(40))
    // An App Store fact is none of Google's: it is not read into the review's facts.
    #expect(Self.google.policySchema.fact(named: "product.type") == nil)
    #expect(recorded.values["reason"] != nil, "the review's own facts come with it")
  }

  @Test func aStoredGoogleNotificationThatIsNoReviewIsADamagedRecord() {
    let test = Data(
      #"{"version": "1.0", "packageName": "com.example.coins", "eventTimeMillis": "1", "testNotification": {"version": "1.0"}}"#
        .utf8)
    let stored = StoredRequest(
      id: 3, rawNotification: test, receivedAt: Date(), factsJSON: nil)
    #expect(
      throws: DryRunError.badStoredRequest(
        id: 3, reason: "the stored Google Play notification is not a refund review")
    ) {
      try StoredRequestDecoder.decodeEntry(stored, schema: .standard, googlePlay: Self.google)
    }
  }

  @Test func somethingOfNeitherStoreKeepsApplesError() {
    let stored = StoredRequest(
      id: 4, rawNotification: Data("{\"hello\": 1}".utf8), receivedAt: Date(), factsJSON: nil)
    #expect(throws: DryRunError.self) {
      try StoredRequestDecoder.decodeEntry(stored, schema: .standard, googlePlay: Self.google)
    }
    #expect(throws: (any Error).self) {
      try StoredRequestDecoder.decode(stored, schema: .standard)
    }
  }
}
