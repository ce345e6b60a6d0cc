import ReckonAppStore
import ReckonState

extension ReplyRules {
  /// Apple's: a CONSUMPTION_REQUEST asks for a reply, within its environment's window.
  public static let appStore = ReplyRules(
    requestType: NotificationType.consumptionRequest.rawValue,
    windows: Dictionary(
      uniqueKeysWithValues: AppStoreEnvironment.allCases.map {
        ($0.rawValue, $0.consumptionReplyWindow)
      }),
    otherWindow: AppStoreEnvironment.longestReplyWindow)
}
