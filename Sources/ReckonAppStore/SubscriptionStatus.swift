/// The status of an auto-renewable subscription; Apple's libraries call this type `Status`.
public enum SubscriptionStatus: Int, Codable, Hashable, Sendable, CaseIterable {
  /// The subscription is active.
  case active = 1
  /// The subscription expired.
  case expired = 2
  /// The subscription is in billing retry.
  case billingRetry = 3
  /// The subscription is in its billing grace period.
  case billingGracePeriod = 4
  /// The subscription was revoked.
  case revoked = 5
}
