import ReckonState

/// An outbox entry's `BodyContext` as the outbox table's columns hold it: one column per value
/// the App Store's body rules read, made when those were the only rules. A value with no column
/// is refused rather than dropped, so a check before a send never sees less than the decision did.
struct OutboxContextColumns {
  /// The names the values go by in a `BodyContext`.
  static let productTypeKey = "productType"
  static let ownershipTypeKey = "ownershipType"
  static let advancedCommerceKey = "advancedCommerce"

  var productType: String?
  var ownershipType: String?
  var isAdvancedCommerce: Bool

  /// The columns of stored values.
  init(productType: String?, ownershipType: String?, isAdvancedCommerce: Bool) {
    self.productType = productType
    self.ownershipType = ownershipType
    self.isAdvancedCommerce = isAdvancedCommerce
  }

  /// The columns of `context`; throws `.invalidBody` for a value no column holds.
  init(_ context: BodyContext) throws(StateError) {
    // Written inside the store's write lock for every reply: no set or sort unless one is unknown.
    if let unknown = context.values.keys.filter({
      $0 != Self.productTypeKey && $0 != Self.ownershipTypeKey && $0 != Self.advancedCommerceKey
    }).min() {
      throw .invalidBody("the SQLite state has no column for the body context value \(unknown)")
    }
    productType = context.values[Self.productTypeKey]
    ownershipType = context.values[Self.ownershipTypeKey]
    isAdvancedCommerce = context.values[Self.advancedCommerceKey] == "true"
  }

  /// The context the columns hold.
  var context: BodyContext {
    var values: [String: String] = [:]
    values[Self.productTypeKey] = productType
    values[Self.ownershipTypeKey] = ownershipType
    if isAdvancedCommerce { values[Self.advancedCommerceKey] = "true" }
    return BodyContext(values)
  }
}
