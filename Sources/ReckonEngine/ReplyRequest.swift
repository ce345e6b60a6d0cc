import Foundation
import ReckonFacts
import ReckonPolicy
import ReckonState

/// A store's request for a reply, as fact gathering and Reckon's records read it: the keys fact
/// sources look it up by, when it came, the facts its own notification gives, and whose and
/// which it is in the state's words. Apple's `RefundRequest` and Google Play's
/// `GooglePlayReviewRequest` are the two.
public protocol ReplyRequest: Sendable {
  /// When it was received: the decision's `now`.
  var receivedAt: Date { get }
  /// The keys fact sources look it up by.
  var keys: RequestKeys { get }
  /// The facts the notification itself gives (origin `.notification`), by name.
  func notificationFacts() -> [String: Value]
  /// The app and environment the state records it under, when known.
  var appKey: AppKey? { get }
  /// The id the reply names: Apple's transaction id, Google's order id.
  var replyId: String? { get }
  /// How the state recognises its customer across requests, when it can.
  var customer: CustomerKey? { get }
}
