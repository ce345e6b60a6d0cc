/// Whether a transaction is a customer's purchase or a system renewal.
public enum TransactionReason: String, Codable, Hashable, Sendable, CaseIterable {
  /// The customer bought the product.
  case purchase = "PURCHASE"
  /// The system renewed an auto-renewable subscription.
  case renewal = "RENEWAL"
}
