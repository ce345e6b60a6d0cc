/// What validation needs to know about the transaction beyond the body itself.
public struct ConsumptionValidationContext: Hashable, Sendable {
  /// The transaction's product type; rules that depend on it are skipped when nil.
  public var productType: ProductType?
  /// The transaction's ownership type; rules that depend on it are skipped when nil.
  public var ownershipType: InAppOwnershipType?
  /// Whether the purchase was made through the Advanced Commerce API, which the endpoint does
  /// not support.
  public var isAdvancedCommerce: Bool

  /// Creates a context; unknown facts stay nil.
  public init(
    productType: ProductType? = nil, ownershipType: InAppOwnershipType? = nil,
    isAdvancedCommerce: Bool = false
  ) {
    self.productType = productType
    self.ownershipType = ownershipType
    self.isAdvancedCommerce = isAdvancedCommerce
  }

  /// Takes the product and ownership types from a decoded transaction.
  public init(transaction: JWSTransactionDecodedPayload) {
    self.init(
      productType: transaction.type, ownershipType: transaction.inAppOwnershipType,
      isAdvancedCommerce: transaction.isAdvancedCommerce)
  }
}
