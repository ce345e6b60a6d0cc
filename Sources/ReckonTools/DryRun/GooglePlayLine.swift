import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonSupport

/// What one Google Play line of a requests file holds: a Pub/Sub push body
/// (`{"message": {...}, "subscription": ...}`, as Google posts it) or a decoded developer
/// notification (`{"packageName": ..., "pendingRefundReviewNotification": {...}}`). A push in a
/// file is not verified: its OIDC token travelled in a header, which the file does not keep.
enum GooglePlayLine {
  /// A chargeback review, with Pub/Sub's message id when the line was a push.
  case review(GooglePlayReviewRequest, messageId: String?)
  /// A voided purchase: Google's verdict on the order's review.
  case verdict(orderId: String, at: Date)
  /// Another Google Play notification (test, subscription, one-time product), left out.
  case otherNotification

  /// Whether a parsed line is shaped as one of Google Play's, not as an App Store notification.
  static func isGooglePlay(_ object: [String: JSONValue]) -> Bool {
    object["packageName"] != nil || object["message"] != nil && object["subscription"] != nil
  }

  /// The line's content, received at its event time; `path:number` names it in errors.
  static func read(_ data: Data, path: String, number: Int) throws(DryRunError) -> GooglePlayLine {
    guard let object = (try? JSONValue.parse(data))?.objectValue else {
      throw .badLine(path: path, line: number, reason: "not valid JSON")
    }
    var notificationData = data
    var messageId: String?
    if object["packageName"] == nil {
      do throws(GooglePlayPayloadError) {
        let push = try PubSubPush(body: data)
        notificationData = push.data
        messageId = push.messageId
      } catch {
        throw .badLine(path: path, line: number, reason: error.description)
      }
    }
    let notification: DeveloperNotification
    do throws(GooglePlayPayloadError) {
      notification = try DeveloperNotification(data: notificationData)
    } catch {
      throw .badLine(path: path, line: number, reason: error.description)
    }
    switch notification.kind {
    case .voidedPurchase(let voided):
      return .verdict(orderId: voided.orderId, at: notification.eventTime)
    case .pendingRefundReview:
      let review = GooglePlayReviewRequest(notification, receivedAt: notification.eventTime)!
      return .review(review, messageId: messageId)
    default: return .otherNotification
    }
  }

}
