/// What the developer would have Google Play do with a chargeback under review.
public enum GooglePlayRefundPreference: String, CaseIterable, Hashable, Sendable, Codable {
  /// Refund in full.
  case approve = "APPROVE"
  /// Decline the refund.
  case decline = "DECLINE"
  /// No preference either way.
  case neutral = "NEUTRAL"
}
