/// How a transaction was revoked.
public enum RevocationType: String, Codable, Hashable, Sendable, CaseIterable {
  /// The App Store refunded the whole transaction.
  case refundFull = "REFUND_FULL"
  /// The App Store refunded part of the transaction; see `revocationPercentage`.
  case refundProrated = "REFUND_PRORATED"
  /// The purchase was withdrawn from a family member.
  case familyRevoke = "FAMILY_REVOKE"
  /// The organization or group withdrew an assigned purchase.
  case assignmentRevoke = "ASSIGNMENT_REVOKE"
}
