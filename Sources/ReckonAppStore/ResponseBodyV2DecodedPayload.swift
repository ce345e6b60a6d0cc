import Foundation

/// The decoded payload of an App Store Server Notification V2 (the middle of `signedPayload`).
///
/// Apple sends one of `data`, `summary`, `externalPurchaseToken`, `appData` and `unclaimInfo`; each
/// names the app and environment the notification is for. Unknown keys are ignored rather than
/// rejected.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
  /// The notification type as Apple sent it.
  public var rawNotificationType: String?
  /// The subtype as Apple sent it.
  public var rawSubtype: String?
  /// The notification's unique identifier; retries of one notification keep it.
  public var notificationUUID: String?
  /// The app and transaction data; absent on the notifications that carry one of the others.
  public var data: NotificationData?
  /// The mass-extension summary; present instead of `data` on RENEWAL_EXTENSION / SUMMARY.
  public var summary: NotificationSummary?
  /// The external purchase token; present instead of `data` on EXTERNAL_PURCHASE_TOKEN.
  public var externalPurchaseToken: ExternalPurchaseToken?
  /// The app metadata; present instead of `data` on notifications about the app rather than a
  /// purchase, such as RESCIND_CONSENT.
  public var appData: NotificationAppData?
  /// The seat claims taken back; present on UNCLAIM_SEATS.
  public var unclaimInfo: NotificationUnclaimInfo?
  /// The notification format version, "2.0".
  public var version: String?
  /// When Apple signed the notification.
  public var signedDate: Date?

  /// Creates an empty payload; set the fields you need.
  public init() {}

  /// The notification type, or nil if absent or unknown (see `rawNotificationType`).
  public var notificationType: NotificationType? {
    get { rawNotificationType.flatMap(NotificationType.init(rawValue:)) }
    set { rawNotificationType = newValue?.rawValue }
  }

  /// The subtype, or nil if absent or unknown (see `rawSubtype`).
  public var subtype: Subtype? {
    get { rawSubtype.flatMap(Subtype.init(rawValue:)) }
    set { rawSubtype = newValue?.rawValue }
  }

  enum CodingKeys: String, CodingKey {
    case rawNotificationType = "notificationType"
    case rawSubtype = "subtype"
    case notificationUUID, data, summary, externalPurchaseToken, appData, unclaimInfo, version
    case signedDate
  }
}
