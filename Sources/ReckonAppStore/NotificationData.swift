/// The app metadata and signed transaction and renewal information inside a V2 notification.
///
/// Enum-valued fields keep Apple's raw value beside the typed view, as Apple's Swift library does,
/// so a value added by Apple after this build decodes, survives re-encoding, and stays readable.
public struct NotificationData: Codable, Hashable, Sendable {
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// The app's App Store identifier; absent in sandbox.
  public var appAppleId: Int64?
  /// The app's bundle identifier.
  public var bundleId: String?
  /// The app's build version.
  public var bundleVersion: String?
  /// The transaction as a compact JWS, verified separately.
  public var signedTransactionInfo: String?
  /// The subscription renewal information as a compact JWS, verified separately.
  public var signedRenewalInfo: String?
  /// The subscription status as Apple sent it.
  public var rawStatus: Int?
  /// The customer's refund reason as Apple sent it; only on CONSUMPTION_REQUEST.
  public var rawConsumptionRequestReason: String?

  /// Creates empty data; set the fields you need.
  public init() {}

  /// The environment, or nil if absent or unknown to this build (see `rawEnvironment`).
  public var environment: AppStoreEnvironment? {
    get { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
    set { rawEnvironment = newValue?.rawValue }
  }

  /// The subscription status, or nil if absent or unknown (see `rawStatus`).
  public var status: SubscriptionStatus? {
    get { rawStatus.flatMap(SubscriptionStatus.init(rawValue:)) }
    set { rawStatus = newValue?.rawValue }
  }

  /// The customer's refund reason, or nil if absent or unknown (see `rawConsumptionRequestReason`).
  public var consumptionRequestReason: ConsumptionRequestReason? {
    get { rawConsumptionRequestReason.flatMap(ConsumptionRequestReason.init(rawValue:)) }
    set { rawConsumptionRequestReason = newValue?.rawValue }
  }

  enum CodingKeys: String, CodingKey {
    case rawEnvironment = "environment"
    case appAppleId, bundleId, bundleVersion, signedTransactionInfo, signedRenewalInfo
    case rawStatus = "status"
    case rawConsumptionRequestReason = "consumptionRequestReason"
  }
}
