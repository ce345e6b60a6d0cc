import ReckonGooglePlay
import ReckonState

extension ReplyRules {
  /// Google Play's: a pending refund review asks for one answer, within 24 hours.
  public static let googlePlay = ReplyRules(
    requestType: GooglePlayStore.reviewNotificationType,
    windows: [GooglePlayStore.environment: GooglePlayStore.replyWindow],
    otherWindow: GooglePlayStore.replyWindow)

  /// Both stores' rules, as a state that records requests from either applies them.
  public static let stores = ReplyRules.appStore.combined(with: .googlePlay)
}
