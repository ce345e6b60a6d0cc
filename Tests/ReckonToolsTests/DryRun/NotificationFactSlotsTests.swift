import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// The bulk path writes a notification's facts straight into slots, remembering parsed reasons,
/// environments and product types; it must give what `GatheredFacts` gives for every request,
/// whatever came before it.
struct NotificationFactSlotsTests {
  private static func request(
    reason: String?, dataEnvironment: String?, transactionEnvironment: String?, type: String?,
    currency: String = "GBP"
  ) -> RefundRequest {
    var data = NotificationData()
    data.rawConsumptionRequestReason = reason
    data.rawEnvironment = dataEnvironment
    var notification = ResponseBodyV2DecodedPayload()
    notification.notificationUUID = UUID().uuidString
    notification.data = data
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "2000000000000001"
    transaction.rawEnvironment = transactionEnvironment
    transaction.rawType = type
    transaction.productId = "com.example.coins.pack100"
    transaction.price = 990
    transaction.currency = currency
    return RefundRequest(
      notification: notification, transaction: transaction,
      receivedAt: Date(timeIntervalSince1970: 1_790_000_000))
  }

  @Test func filledSlotsMatchGatheredFactsRequestAfterRequest() throws {
    let schema = FactSchema.standard
    var slots = NotificationFactSlots(schema: schema)
    var requests: [RefundRequest] = []
    for reason in ["UNINTENDED_PURCHASE", "LEGAL", "NOT_A_REASON", nil] {
      for (fromData, fromTransaction) in [
        ("Production", "Sandbox"), ("Sandbox", nil), ("Moon", "Xcode"), (nil, "LocalTesting"),
        ("Moon", "Mars"), (nil, nil),
      ] {
        for type in ["Consumable", "Auto-Renewable Subscription", "Gadget", nil] {
          requests.append(
            Self.request(
              reason: reason, dataEnvironment: fromData, transactionEnvironment: fromTransaction,
              type: type))
        }
      }
    }
    // A price no fact can hold (an unsigned payload may carry any currency) is left out by both.
    for currency in ["usd", "", "EURO"] {
      requests.append(
        Self.request(
          reason: "OTHER", dataEnvironment: "Xcode", transactionEnvironment: "Xcode",
          type: "Consumable", currency: currency))
    }
    // Twice over, so the second pass reads remembered values.
    for request in requests + requests {
      var values = FactValues(schema: schema.policySchema)
      slots.fill(&values, from: request)
      #expect(values == GatheredFacts(request: request, schema: schema).values)
    }
  }

  @Test func aNotificationFactNoFactCanHoldIsLeftOutAndSaid() {
    let request = Self.request(
      reason: "OTHER", dataEnvironment: "Xcode", transactionEnvironment: "Xcode",
      type: "Consumable", currency: "usd")
    let gathered = GatheredFacts(request: request, schema: .standard)
    #expect(gathered.values["purchase.price"] == nil)
    #expect(gathered.refused.contains { $0.hasPrefix("notification: purchase.price: 'usd'") })
  }

  /// A renewal carries its subscription's first purchase as `originalPurchaseDate`: a policy
  /// reads a subscriber's tenure from it. A first purchase without one is its own original; a
  /// renewal (or a transaction of another original) without one has none to read, rather than
  /// its own date, which would make a long subscriber new. The bulk path and `GatheredFacts`
  /// read it alike.
  @Test(
    arguments: [
      (Date(timeIntervalSince1970: 1_780_000_000), "RENEWAL", "1000", 1_780_000_000.0),
      (nil, "PURCHASE", "2000000000000001", 1_789_000_000.0),
      (nil, nil, nil, 1_789_000_000.0),
      (nil, "RENEWAL", "2000000000000001", nil),
      (nil, "PURCHASE", "1000", nil),
    ] as [(Date?, String?, String?, Double?)])
  func theOriginalPurchaseDateIsTheSubscriptionsFirstPurchase(
    _ original: Date?, _ reason: String?, _ originalId: String?, _ expected: Double?
  ) {
    var request = Self.request(
      reason: "OTHER", dataEnvironment: "Production", transactionEnvironment: "Production",
      type: "Auto-Renewable Subscription")
    var transaction = request.transaction
    transaction.purchaseDate = Date(timeIntervalSince1970: 1_789_000_000)
    transaction.originalPurchaseDate = original
    transaction.rawTransactionReason = reason
    transaction.originalTransactionId = originalId
    request = RefundRequest(
      notification: request.notification, transaction: transaction,
      receivedAt: request.receivedAt)
    let gathered = GatheredFacts(request: request, schema: .standard)
    #expect(gathered.values["purchase.original_date"] == expected.map(Value.timestamp))
    #expect(gathered.values["purchase.date"] == .timestamp(1_789_000_000))
    var slots = NotificationFactSlots(schema: .standard)
    var values = FactValues(schema: FactSchema.standard.policySchema)
    slots.fill(&values, from: request)
    #expect(values == gathered.values)
  }
}
