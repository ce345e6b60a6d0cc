/// The summary a RENEWAL_EXTENSION / SUMMARY notification carries instead of `data`.
public struct NotificationSummary: Codable, Hashable, Sendable {
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// The app's App Store identifier.
  public var appAppleId: Int64?
  /// The app's bundle identifier.
  public var bundleId: String?
  /// The subscription product the extension applied to.
  public var productId: String?
  /// The identifier the developer gave the mass-extension request.
  public var requestIdentifier: String?
  /// The storefronts the extension covered.
  public var storefrontCountryCodes: [String]?
  /// How many subscriptions were extended.
  public var succeededCount: Int64?
  /// How many subscriptions could not be extended.
  public var failedCount: Int64?

  /// Creates an empty summary; set the fields you need.
  public init() {}

  /// The environment, or nil if absent or unknown (see `rawEnvironment`).
  public var environment: AppStoreEnvironment? {
    get { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
    set { rawEnvironment = newValue?.rawValue }
  }

  enum CodingKeys: String, CodingKey {
    case rawEnvironment = "environment"
    case appAppleId, bundleId, productId, requestIdentifier, storefrontCountryCodes
    case succeededCount, failedCount
  }
}
