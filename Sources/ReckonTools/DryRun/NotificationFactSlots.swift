import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// The notification's facts written straight into their slots: the same facts and values as
/// `NotificationFacts.extract`, without building a dictionary, for the bulk path.
struct NotificationFactSlots: Sendable {
  private let now, reason, environment, productId, productType: Int?
  private let purchaseDate, originalDate, quantity, price, storefront, offer: Int?
  /// The slots only the notification may fill.
  let notificationOnly: [Bool]
  // Reasons, environments and product types repeat a handful of strings on every line.
  private var reasons = ParsedStrings<Value?>()
  private var environments = ParsedStrings<Value?>()
  private var productTypes = ParsedStrings<Value?>()

  init(schema: FactSchema) {
    let policySchema = schema.policySchema
    func slot(_ name: String) -> Int? { policySchema.slot(ofFact: name) }
    now = slot("now")
    reason = slot("reason")
    environment = slot("request.environment")
    productId = slot("product.id")
    productType = slot("product.type")
    purchaseDate = slot("purchase.date")
    originalDate = slot("purchase.original_date")
    quantity = slot("purchase.quantity")
    price = slot("purchase.price")
    storefront = slot("purchase.storefront")
    offer = slot("purchase.offer")
    notificationOnly = policySchema.facts.map { schema.origin(of: $0.name) == .notification }
  }

  /// Fills `values` from `request`, as `GatheredFacts(request:schema:)` does.
  mutating func fill(_ values: inout FactValues, from request: RefundRequest) {
    let transaction = request.transaction
    let data = request.notification.data
    put(&values, now, .timestamp(request.receivedAt.timeIntervalSince1970))
    if let raw = data?.rawConsumptionRequestReason {
      put(
        &values, reason,
        reasons.value(for: raw) {
          ConsumptionRequestReason(rawValue: $0).flatMap {
            FactSchema.reason.ordinal(of: $0.rawValue).map(Value.enumeration)
          }
        })
    }
    // The notification's environment, else the transaction's, as `GatheredFacts` reads them
    // (every environment Apple names has a policy name, so a known one always gives a value).
    let fromNotification = data?.rawEnvironment.flatMap {
      environments.value(for: $0, parse: NotificationFactSlots.environmentValue)
    }
    put(
      &values, environment,
      fromNotification
        ?? transaction.rawEnvironment.flatMap {
          environments.value(for: $0, parse: NotificationFactSlots.environmentValue)
        })
    put(&values, productId, transaction.productId.map(Value.text))
    if let rawType = transaction.rawType {
      put(
        &values, productType,
        productTypes.value(for: rawType) {
          ProductType(rawValue: $0).flatMap {
            FactSchema.productType.ordinal(of: $0.policyName).map(Value.enumeration)
          }
        })
    }
    put(
      &values, purchaseDate, transaction.purchaseDate.map { .timestamp($0.timeIntervalSince1970) })
    put(
      &values, originalDate,
      request.originalPurchaseDate.map { .timestamp($0.timeIntervalSince1970) })
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

  /// Sets `value` unless no fact can hold it (a price in `usd`), as `GatheredFacts` does, so
  /// the bulk path and serve decide such a payload alike.
  private func put(_ values: inout FactValues, _ slot: Int?, _ value: Value?) {
    guard let slot, let value, value.outOfBounds == nil else { return }
    values.set(slot: slot, to: value)
  }

  private static func environmentValue(_ raw: String) -> Value? {
    AppStoreEnvironment(rawValue: raw).flatMap {
      FactSchema.environment.ordinal(of: NotificationFacts.policyName(of: $0)).map(
        Value.enumeration)
    }
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

/// Values parsed from a few raw strings that repeat: found again by comparing strings, which for
/// the decoder's shared strings is a pointer comparison, instead of parsing each time.
struct ParsedStrings<Parsed: Sendable>: Sendable {
  private var raws: [String] = []
  private var parsed: [Parsed] = []

  /// The parsed value of `raw`, parsed by `parse` the first time (and every time once 16
  /// distinct strings are remembered).
  mutating func value(for raw: String, parse: (String) -> Parsed) -> Parsed {
    for index in raws.indices where raws[index] == raw { return parsed[index] }
    let value = parse(raw)
    if raws.count < 16 {
      raws.append(raw)
      parsed.append(value)
    }
    return value
  }
}
