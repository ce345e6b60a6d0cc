import Foundation
import ReckonEngine

/// One generated CONSUMPTION_REQUEST and the purchase it is about.
public struct GeneratedRequest: Hashable, Sendable {
  let index: Int
  /// Apple's notification UUID.
  public let notificationUUID: String
  /// The purchase's transaction id.
  public let transactionId: String
  let customer: Int
  let receivedAt: Int64
  let purchasedAt: Int64
  /// When the subscription was first bought (`purchasedAt` but for a renewal).
  let originalPurchasedAt: Int64
  let product: Int
  let reason: Int
  let storefront, storefrontId, currency: String
  let delivered: Bool
  let problem: Int
  let sampleOffered: Bool
  let usage: Double
  let lastUsedAfter: Int64

  static func pick(_ weights: [Int], _ random: inout GeneratorRandom) -> Int {
    var roll = random.below(weights.reduce(0, +))
    for (index, weight) in weights.enumerated() {
      if roll < weight { return index }
      roll -= weight
    }
    return weights.count - 1
  }

  /// The notification as one JSON line in Apple's decoded shape, the transaction in place of
  /// `signedTransactionInfo`.
  func jsonLine(_ generator: PastRequestGenerator, token: String) -> String {
    let product = PastRequestGenerator.products[self.product]
    let reason = PastRequestGenerator.reasons[self.reason].0
    let expires =
      product.type.hasPrefix("Auto") ? ",\"expiresDate\":\(purchasedAt + 30 * 86_400_000)" : ""
    return
      "{\"notificationType\":\"CONSUMPTION_REQUEST\",\"notificationUUID\":\"\(notificationUUID)\",\"version\":\"2.0\",\"signedDate\":\(receivedAt),"
      + "\"data\":{\"environment\":\"Production\",\"appAppleId\":\(generator.appAppleId),\"bundleId\":\"\(generator.bundleId)\",\"bundleVersion\":\"3.2.1\",\"consumptionRequestReason\":\"\(reason)\","
      + "\"signedTransactionInfo\":{\"transactionId\":\"\(transactionId)\",\"originalTransactionId\":\"\(originalTransactionId)\",\"bundleId\":\"\(generator.bundleId)\",\"productId\":\"\(product.id)\","
      + "\"purchaseDate\":\(purchasedAt),\"originalPurchaseDate\":\(originalPurchasedAt)\(expires),\"quantity\":1,\"type\":\"\(product.type)\",\"appAccountToken\":\"\(token)\","
      + "\"inAppOwnershipType\":\"PURCHASED\",\"signedDate\":\(receivedAt),\"environment\":\"Production\",\"transactionReason\":\"\(originalPurchasedAt < purchasedAt ? "RENEWAL" : "PURCHASE")\",\"storefront\":\"\(storefront)\",\"storefrontId\":\"\(storefrontId)\","
      + "\"price\":\(product.price),\"currency\":\"\(currency)\"}}}"
  }

  /// The first transaction of the subscription a renewal renews (Apple gives each renewal an
  /// id of its own); the transaction itself otherwise.
  var originalTransactionId: String {
    originalPurchasedAt < purchasedAt ? String(1_000_000_000_000_000 + index) : transactionId
  }

  /// Coins granted and used.
  var units: (granted: Int, used: Int) {
    let granted = PastRequestGenerator.products[product].units
    return (granted, delivered ? Int((Double(granted) * usage).rounded()) : 0)
  }

  static let problems = [
    "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
    "UNDELIVERED_OTHER",
  ]
}

/// One generated customer of the app.
public struct GeneratedCustomer: Hashable, Sendable {
  let index: Int
  /// The appAccountToken the app set at purchase.
  public let token: String
  let createdAt: Int64
  let consented: Int?
  let lifetimeSpentCents: Int
  let vip: Bool
  let pastRefunds: Int
  let override: String?
}
