import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// The facts that come from the signed notification itself. They are never taken from an adapter.
package enum NotificationFacts {
  package static func extract(from request: RefundRequest) -> [String: Value] {
    var facts: [String: Value] = [:]
    facts.reserveCapacity(12)
    let transaction = request.transaction
    facts["now"] = .timestamp(request.receivedAt.timeIntervalSince1970)
    if let reason = request.notification.data?.consumptionRequestReason {
      facts["reason"] = ordinal(reason.rawValue, in: FactSchema.reason)
    }
    if let environment = request.notification.data?.environment ?? transaction.environment {
      facts["request.environment"] = ordinal(
        policyName(of: environment), in: FactSchema.environment)
    }
    facts["product.id"] = transaction.productId.map(Value.text)
    facts["product.type"] = transaction.type.flatMap {
      ordinal($0.policyName, in: FactSchema.productType)
    }
    facts["purchase.date"] = transaction.purchaseDate.map { .timestamp($0.timeIntervalSince1970) }
    facts["purchase.original_date"] = request.originalPurchaseDate.map {
      .timestamp($0.timeIntervalSince1970)
    }
    facts["purchase.quantity"] = transaction.quantity.map { .number(Double($0)) }
    if let price = transaction.price, let currency = transaction.currency {
      // Apple's price is in milliunits, as Reckon's money is.
      facts["purchase.price"] = .money(price, currency: currency)
    }
    facts["purchase.storefront"] = transaction.storefront.map(Value.text)
    facts["purchase.offer"] = transaction.offerType.flatMap {
      ordinal(offerName(of: $0), in: FactSchema.offer)
    }
    return facts
  }

  private static func ordinal(_ name: String, in type: EnumType) -> Value? {
    type.ordinal(of: name).map(Value.enumeration)
  }

  package static func policyName(of environment: AppStoreEnvironment) -> String {
    switch environment {
    case .production: "PRODUCTION"
    case .sandbox: "SANDBOX"
    case .xcode: "XCODE"
    case .localTesting: "LOCAL_TESTING"
    }
  }

  private static func offerName(of offer: OfferType) -> String {
    switch offer {
    case .introductoryOffer: "INTRODUCTORY"
    case .promotionalOffer: "PROMOTIONAL"
    case .offerCode: "OFFER_CODE"
    case .winBackOffer: "WIN_BACK"
    }
  }
}
