/// The customer's stated reason for a refund request, sent with CONSUMPTION_REQUEST.
public enum ConsumptionRequestReason: String, Codable, Hashable, Sendable, CaseIterable {
  /// The customer didn't intend to make the purchase.
  case unintendedPurchase = "UNINTENDED_PURCHASE"
  /// The customer had issues receiving or using the purchase.
  case fulfillmentIssue = "FULFILLMENT_ISSUE"
  /// The customer wasn't satisfied with the purchase.
  case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
  /// The customer asked for a refund on legal grounds.
  case legal = "LEGAL"
  /// The customer gave another reason.
  case other = "OTHER"
}
