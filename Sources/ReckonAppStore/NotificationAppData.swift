/// The app metadata a notification about the app rather than a purchase (RESCIND_CONSENT, say)
/// carries instead of `data`; Apple calls it `appData`.
public struct NotificationAppData: Codable, Hashable, Sendable {
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// The app's App Store identifier.
  public var appAppleId: Int64?
  /// The app's bundle identifier.
  public var bundleId: String?
  /// The app transaction as a compact JWS; Reckon neither verifies nor reads it.
  public var signedAppTransactionInfo: String?

  /// Creates empty app data; set the fields you need.
  public init() {}

  /// The environment, or nil if absent or unknown to this build (see `rawEnvironment`).
  public var environment: AppStoreEnvironment? {
    get { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
    set { rawEnvironment = newValue?.rawValue }
  }

  enum CodingKeys: String, CodingKey {
    case rawEnvironment = "environment"
    case appAppleId, bundleId, signedAppTransactionInfo
  }
}
