/// The outcome the developer would prefer for a refund request (v2 body, string values).
public enum RefundPreference: String, Codable, Hashable, Sendable, CaseIterable {
  /// Prefer that Apple declines the refund.
  case decline = "DECLINE"
  /// Prefer that Apple grants a full refund.
  case grantFull = "GRANT_FULL"
  /// Prefer that Apple grants a refund in proportion to what was not consumed.
  case grantProrated = "GRANT_PRORATED"
}
