/// Why the App Store refunded or revoked a transaction.
public enum RevocationReason: Int, Codable, Hashable, Sendable, CaseIterable {
  /// Refunded for other reasons, for example an accidental purchase.
  case other = 0
  /// Refunded because of an actual or perceived issue within the app.
  case appIssue = 1
}
