import Foundation
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonState

/// One Google Play chargeback review, read from a verified push (or from the state, where the
/// verified notification was recorded), with the time Reckon received it: the decision's `now`.
public struct GooglePlayReviewRequest: Hashable, Sendable, ReplyRequest {
  /// The developer notification.
  public let notification: DeveloperNotification
  /// The review it carries.
  public let review: PendingRefundReviewNotification
  /// When the notification was received.
  public let receivedAt: Date

  /// The request `notification` makes, received at `receivedAt`; nil when it is not a review.
  public init?(_ notification: DeveloperNotification, receivedAt: Date) {
    guard case .pendingRefundReview(let review) = notification.kind else { return nil }
    self.notification = notification
    self.review = review
    self.receivedAt = receivedAt
  }

  /// The app's package name.
  public var packageName: String { notification.packageName }

  /// Google's deadline: 24 hours after the event, or after receipt if that was earlier (our
  /// clock behind Google's).
  public var deadline: Date {
    min(receivedAt, notification.eventTime).addingTimeInterval(GooglePlayStore.replyWindow)
  }

  /// The keys fact sources are asked with: the order id as the transaction id, the obfuscated
  /// account id (in lower case, as sources are asked for Apple's tokens) as the app account
  /// token, the package name as the bundle id.
  public var keys: RequestKeys {
    RequestKeys(
      transactionId: review.orderId, originalTransactionId: nil,
      appAccountToken: review.obfuscatedAccountId, productId: nil,
      bundleId: packageName)
  }

  /// The review's own facts.
  public func notificationFacts() -> [String: Value] {
    var facts: [String: Value] = [
      "now": .timestamp(receivedAt.timeIntervalSince1970), "order.id": .text(review.orderId),
      "request.package_name": .text(packageName),
    ]
    // A number Reckon does not know decides as a missing reason, as an unknown Apple reason does.
    if let reason = review.refundReason,
      let ordinal = FactSchema.GooglePlay.reason.ordinal(of: reason.name)
    {
      facts["reason"] = .enumeration(ordinal)
    }
    facts["customer.obfuscated_account_id"] = review.obfuscatedAccountId.map(Value.text)
    facts["customer.obfuscated_profile_id"] = review.obfuscatedProfileId.map(Value.text)
    return facts
  }

  /// The app, in the Google Play environment.
  public var appKey: AppKey? {
    AppKey(bundleId: packageName, environment: GooglePlayStore.environment)
  }

  /// The order the answer names.
  public var replyId: String? { review.orderId }

  /// The obfuscated account id, which the app sets per customer, in lower case as the state
  /// keeps account tokens.
  public var customer: CustomerKey? { keys.appAccountToken.map(CustomerKey.appAccountToken) }
}
