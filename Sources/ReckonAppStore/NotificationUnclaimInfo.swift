/// The seat claims an UNCLAIM_SEATS notification says the App Store took back, in a group
/// subscription whose invitations the developer hosts.
///
/// Apple's reference names `unclaimSeatIds`; the app fields are read as `summary`'s are, for a
/// payload that carries this block instead of `data`.
public struct NotificationUnclaimInfo: Codable, Hashable, Sendable {
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// The app's App Store identifier.
  public var appAppleId: Int64?
  /// The app's bundle identifier.
  public var bundleId: String?
  /// The original transaction of the group purchase, when Apple names it.
  public var originalTransactionId: String?
  /// The seat claim identifiers (from Claim Seat) that are no longer claimed.
  public var unclaimSeatIds: [String]?

  /// Creates an empty block; set the fields you need.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case rawEnvironment = "environment"
    case appAppleId, bundleId, originalTransactionId, unclaimSeatIds
  }
}
