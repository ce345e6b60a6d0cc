import Foundation

/// Google Play's words and limits as Reckon records them beside Apple's.
public enum GooglePlayStore {
  /// The environment name Google Play requests are recorded under (Google has one store, with
  /// test purchases in it, so one environment).
  public static let environment = "GooglePlay"
  /// How long Google waits for the answer to a chargeback review.
  public static let replyWindow: TimeInterval = 24 * 3_600
  /// The notification type a review is recorded as.
  public static let reviewNotificationType = "PENDING_REFUND_REVIEW"
  /// The notification type a voided purchase is recorded as.
  public static let voidedNotificationType = "VOIDED_PURCHASE"

  /// Every type `notificationType(of:)` gives.
  public static let notificationTypes: Set<String> = [
    reviewNotificationType, voidedNotificationType, "ONE_TIME_PRODUCT", "SUBSCRIPTION", "TEST",
  ]

  /// The type a notification of `kind` is recorded as.
  public static func notificationType(of kind: DeveloperNotification.Kind) -> String {
    switch kind {
    case .pendingRefundReview: reviewNotificationType
    case .voidedPurchase: voidedNotificationType
    case .oneTimeProduct: "ONE_TIME_PRODUCT"
    case .subscription: "SUBSCRIPTION"
    case .test: "TEST"
    }
  }
}
