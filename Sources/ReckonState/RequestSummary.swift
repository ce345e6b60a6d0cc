/// What the reports read of a refund request, kept beside its notification when it is recorded
/// so a report over a million requests reads a few columns instead of decoding every signed
/// notification again.
public struct RequestSummary: Hashable, Sendable {
  /// What the customer paid, in milliunits of `currency` (Apple's `price`); nil when the
  /// notification names no price (a Google Play review never does).
  public var price: Int64?
  /// The ISO 4217 currency of `price`.
  public var currency: String?
  /// The customer's reason as the store wrote it (`UNINTENDED_PURCHASE`, Google's reason
  /// name), or nil when it gave none.
  public var reason: String?
  /// The product type as the policy language names it (`consumable`, `Google Play`), or nil
  /// when it is unknown.
  public var productType: String?

  /// A summary from its parts.
  public init(
    price: Int64? = nil, currency: String? = nil, reason: String? = nil,
    productType: String? = nil
  ) {
    self.price = price
    self.currency = currency
    self.reason = reason
    self.productType = productType
  }
}
