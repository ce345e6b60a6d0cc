import Foundation
import ReckonAppStore

/// What decides, for every backend alike, whether a notification opens a request to answer and
/// which earlier request it repeats; a backend supplies the lookups, these the rules.
extension NotificationRecord {
  /// How long ago a request still before its deadline can have been received: the longest reply
  /// window of any environment. A backend looks for open requests no further back than this.
  public static let longestReplyWindow = AppStoreEnvironment.longestReplyWindow

  /// Whether the notification asks for a reply (a CONSUMPTION_REQUEST): only such a one can
  /// repeat an earlier request, or make an imported copy of itself live.
  public var asksForReply: Bool {
    notificationType == NotificationType.consumptionRequest.rawValue
  }

  /// When Apple first sent the request, of this notification's environment, whose deadline is
  /// `deadline`: Apple's verdict on that request counts from then.
  public func requestOpened(deadline: Date) -> Date {
    deadline.addingTimeInterval(-environment.consumptionReplyWindow)
  }

  /// When Apple asked, by its own clock where the notification was signed (the verdict's time
  /// is Apple's too), else by its receipt.
  public var askedAt: Date { signedDate ?? receivedAt }
}
