import ReckonAppStore
import ReckonState

extension ConsumptionValidationContext {
  /// The names the context's values go by in the state.
  enum BodyContextKey {
    static let productType = "productType"
    static let ownershipType = "ownershipType"
    static let advancedCommerce = "advancedCommerce"
  }

  /// The context as the state keeps it beside a body.
  public var bodyContext: BodyContext {
    var values: [String: String] = [:]
    values[BodyContextKey.productType] = productType?.rawValue
    values[BodyContextKey.ownershipType] = ownershipType?.rawValue
    if isAdvancedCommerce { values[BodyContextKey.advancedCommerce] = "true" }
    return BodyContext(values)
  }

  /// The context the state kept beside a body; a value Apple does not define is unknown, and
  /// the rules that depend on it are skipped, as for a transaction read without it.
  public init(_ context: BodyContext) {
    self.init(
      productType: context.values[BodyContextKey.productType].flatMap(ProductType.init(rawValue:)),
      ownershipType: context.values[BodyContextKey.ownershipType].flatMap(
        InAppOwnershipType.init(rawValue:)),
      isAdvancedCommerce: context.values[BodyContextKey.advancedCommerce] == "true")
  }
}
