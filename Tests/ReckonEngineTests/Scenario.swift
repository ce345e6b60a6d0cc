import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// Builds requests and facts for engine tests, so each test states only what it is about.
struct Scenario {
  /// Nil leaves the transaction's `type` out.
  var productType: ProductType? = .consumable
  /// A `type` Apple might add, sent instead of `productType`.
  var unknownProductType: String? = nil
  var reason: ConsumptionRequestReason = .unsatisfiedWithPurchase
  var ownership: InAppOwnershipType = .purchased
  /// The Advanced Commerce API's details, for a purchase made through it.
  var advancedCommerceInfo: JSONValue? = nil
  var purchasedAt = Date(timeIntervalSince1970: 1_790_000_000)
  var receivedAt = Date(timeIntervalSince1970: 1_790_086_400)
  /// Adapter facts written as in the language; a nil value leaves the fact missing.
  var facts: [String: String?] = [
    "customer.consented": "true",
    "delivery.status": "DELIVERED",
    "product.sample_offered": "false",
    "usage.consumed": "40%",
  ]

  var request: RefundRequest {
    var notification = ResponseBodyV2DecodedPayload()
    notification.rawNotificationType = "CONSUMPTION_REQUEST"
    notification.notificationUUID = "00000000-0000-0000-0000-000000000001"
    notification.signedDate = receivedAt
    var data = NotificationData()
    data.rawConsumptionRequestReason = reason.rawValue
    data.rawEnvironment = "Production"
    data.bundleId = "com.example.coins"
    notification.data = data
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "49571273"
    transaction.originalTransactionId = "49571273"
    transaction.productId = "com.example.coins.pack500"
    transaction.rawType = unknownProductType ?? productType?.rawValue
    transaction.rawInAppOwnershipType = ownership.rawValue
    transaction.purchaseDate = purchasedAt
    transaction.quantity = 1
    transaction.price = 4_990
    transaction.currency = "USD"
    transaction.advancedCommerceInfo = advancedCommerceInfo
    return RefundRequest(
      notification: notification, transaction: transaction, receivedAt: receivedAt)
  }

  func gathered(schema: FactSchema = .standard) throws -> GatheredFacts {
    var gathered = GatheredFacts(request: request, schema: schema)
    var values: [String: Value] = [:]
    for (name, text) in facts {
      guard let text, let fact = schema.policySchema.fact(named: name) else { continue }
      values[name] = try ValueParser.parse(text, as: fact.type)
    }
    gathered.add(values, from: "test", schema: schema)
    return gathered
  }

  /// Decides with a policy given as text.
  func decide(_ policyText: String, trace: Bool = false) throws -> Decision {
    let loaded = PolicyLoader.load(
      SourceFile(path: "test.policy", text: policyText), schema: FactSchema.standard.policySchema)
    guard let policy = loaded.policy else {
      throw PolicyDidNotLoad(diagnostics: loaded.renderedDiagnostics())
    }
    return Decider(policy: policy, schema: .standard).decide(
      request, facts: try gathered(), trace: trace)
  }

  /// Sets one adapter fact; nil makes it missing.
  func with(_ name: String, _ value: String?) -> Scenario {
    var copy = self
    copy.facts[name] = .some(value)
    return copy
  }
}

struct PolicyDidNotLoad: Error, CustomStringConvertible {
  let diagnostics: String
  var description: String { diagnostics }
}

/// The folder of the repository, found from this file's path.
enum Repository {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
