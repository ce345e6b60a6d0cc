import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonEngine

/// An embedder's own fact source is held to the bounds the adapters read their text to: a value
/// no fact can hold is refused, named with its source, and the fact stays missing, so it never
/// reaches a body (a percentage of 150 became consumptionPercentage 150000).
struct GatheredFactsBoundsTests {
  static func request() -> RefundRequest {
    var notification = ResponseBodyV2DecodedPayload()
    notification.data = NotificationData()
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "2000000000000001"
    return RefundRequest(
      notification: notification, transaction: transaction,
      receivedAt: Date(timeIntervalSince1970: 1_790_000_000))
  }

  @Test(arguments: [
    ("usage.consumed", Value.percent(150), "150.0% is not a percentage from 0% to 100%"),
    ("usage.consumed", .percent(.nan), "is not a percentage from 0% to 100%"),
    ("usage.consumed_units", .number(.infinity), "inf is not a finite number"),
    ("customer.lifetime_spent", .money(5_000, currency: ""), "'' is not a currency code"),
    ("usage.last_used", .timestamp(1e15), "is not a time in years 1 to 9999"),
  ])
  func aValueNoFactCanHoldIsRefusedNamingItsSource(_ fact: String, _ value: Value, _ why: String) {
    var gathered = GatheredFacts(request: Self.request(), schema: .standard)
    gathered.add([fact: value], from: "embedder", schema: .standard)
    #expect(gathered.values[fact] == nil)
    #expect(gathered.refused.count == 1)
    #expect(gathered.refused.first?.hasPrefix("embedder: \(fact): ") == true, "\(gathered.refused)")
    #expect(gathered.refused.first?.contains(why) == true, "\(gathered.refused)")
  }

  @Test func valuesWithinBoundsAreTaken() {
    var gathered = GatheredFacts(request: Self.request(), schema: .standard)
    gathered.add(
      ["usage.consumed": .percent(100), "customer.lifetime_spent": .money(0, currency: "EUR")],
      from: "embedder", schema: .standard)
    #expect(gathered.values["usage.consumed"] == .percent(100))
    #expect(gathered.refused.isEmpty)
  }
}
