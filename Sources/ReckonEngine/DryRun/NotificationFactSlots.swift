import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// The notification's facts written straight into their slots: the same facts and values as
/// `NotificationFacts.extract`, without building a dictionary, for the bulk path.
struct NotificationFactSlots: Sendable {
  private let now, reason, environment, productId, productType: Int?
  private let purchaseDate, quantity, price, storefront, offer: Int?
  /// The slots only the notification may fill.
  let notificationOnly: [Bool]

  init(schema: FactSchema) {
    let policySchema = schema.policySchema
    func slot(_ name: String) -> Int? { policySchema.slot(ofFact: name) }
    now = slot("now")
    reason = slot("reason")
    environment = slot("request.environment")
    productId = slot("product.id")
    productType = slot("product.type")
    purchaseDate = slot("purchase.date")
    quantity = slot("purchase.quantity")
    price = slot("purchase.price")
    storefront = slot("purchase.storefront")
    offer = slot("purchase.offer")
    notificationOnly = policySchema.facts.map { schema.origin(of: $0.name) == .notification }
  }

  /// Fills `values` from `request`, as `GatheredFacts(request:schema:)` does.
  func fill(_ values: inout FactValues, from request: RefundRequest) {
    let transaction = request.transaction
    let data = request.notification.data
    put(&values, now, .timestamp(request.receivedAt.timeIntervalSince1970))
    if let raw = data?.rawConsumptionRequestReason,
      let reason = ConsumptionRequestReason(rawValue: raw)
    {
      put(
        &values, self.reason, FactSchema.reason.ordinal(of: reason.rawValue).map(Value.enumeration))
    }
    if let environment = data?.environment ?? transaction.environment {
      put(
        &values, self.environment,
        FactSchema.environment.ordinal(of: NotificationFacts.policyName(of: environment))
          .map(Value.enumeration))
    }
    put(&values, productId, transaction.productId.map(Value.text))
    put(
      &values, productType,
      transaction.type.flatMap { FactSchema.productType.ordinal(of: $0.policyName) }
        .map(Value.enumeration))
    put(
      &values, purchaseDate, transaction.purchaseDate.map { .timestamp($0.timeIntervalSince1970) })
    put(&values, quantity, transaction.quantity.map { .number(Double($0)) })
    if let amount = transaction.price, let currency = transaction.currency {
      put(&values, price, .money(amount, currency: currency))
    }
    put(&values, storefront, transaction.storefront.map(Value.text))
    put(
      &values, offer,
      transaction.offerType.flatMap { FactSchema.offer.ordinal(of: NotificationFactSlots.name($0)) }
        .map(Value.enumeration))
  }

  private func put(_ values: inout FactValues, _ slot: Int?, _ value: Value?) {
    guard let slot, let value else { return }
    values.set(slot: slot, to: value)
  }

  private static func name(_ offer: OfferType) -> String {
    switch offer {
    case .introductoryOffer: "INTRODUCTORY"
    case .promotionalOffer: "PROMOTIONAL"
    case .offerCode: "OFFER_CODE"
    case .winBackOffer: "WIN_BACK"
    }
  }
}
