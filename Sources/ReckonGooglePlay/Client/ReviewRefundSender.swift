import Foundation

/// Delivers validated review answers to Google Play: the seam an embedder replaces to use their
/// own HTTP stack, as `ConsumptionSender` is for Apple.
///
/// Contract: `send` never throws (every failure is a `ReviewRefundDelivery`), may be called
/// concurrently, sends `body.data` byte for byte, and retries nothing itself: Google records only
/// the first call, so whether to call again is the outbox's to decide, from what the delivery
/// says Google can have recorded.
public protocol ReviewRefundSender: Sendable {
  /// Sends the answer for `orderId` of `packageName`, giving up at `deadline`.
  func send(
    _ body: ValidatedReviewRefund, packageName: String, orderId: String, before deadline: Date?
  ) async -> ReviewRefundDelivery
}

extension GooglePlayAPIClient: ReviewRefundSender {}
