/// How a subscription with a commitment is billed.
public enum BillingPlanType: String, Codable, Hashable, Sendable, CaseIterable {
  /// The whole commitment is billed up front.
  case billedUpfront = "BILLED_UPFRONT"
  /// The commitment is billed monthly.
  case monthly = "MONTHLY"
}
