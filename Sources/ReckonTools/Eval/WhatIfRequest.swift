import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// A request built from `reckon eval`'s options rather than a notification file, to ask "what
/// would we answer if…" in one line: a CONSUMPTION_REQUEST for a purchase a week before `now`,
/// from a customer who consented, delivered and without a sample, unless `facts` say otherwise.
public struct WhatIfRequest: Sendable {
  /// Why the options do not make a request.
  public struct Problem: Error, CustomStringConvertible {
    /// One sentence naming the option and what to write.
    public let description: String
  }

  /// The customer's reason, in the policy's words (`LEGAL`).
  public var reason = ConsumptionRequestReason.unintendedPurchase.rawValue
  /// The product type, in the policy's words (`CONSUMABLE`).
  public var productType = ProductType.consumable.policyName
  /// When the purchase was made; a week before `now` when not given.
  public var purchaseDate: Date?
  /// When the request is received.
  public var now: Date
  /// `name=value` pairs, values written as in the language (`usage.consumed=40%`).
  public var facts: [String] = []

  /// The facts a what-if request has unless `facts` say otherwise.
  public static let defaults: [String: String] = [
    "customer.consented": "true", "delivery.status": "DELIVERED",
    "product.sample_offered": "false",
  ]

  /// A request received at `now`; set the rest as needed.
  public init(now: Date) {
    self.now = now
  }

  /// The request and its facts, checked against `schema`.
  public func build(schema: FactSchema) throws(Problem) -> (RefundRequest, GatheredFacts) {
    guard let reason = ConsumptionRequestReason(rawValue: reason) else {
      throw Self.unknown(reason, "--reason", ConsumptionRequestReason.allCases.map(\.rawValue))
    }
    let types = ProductType.allCases
    guard let type = types.first(where: { $0.policyName == productType }) else {
      throw Self.unknown(productType, "--product-type", types.map(\.policyName))
    }
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "what-if"
    transaction.originalTransactionId = "what-if"
    transaction.productId = "what-if"
    transaction.type = type
    transaction.purchaseDate = purchaseDate ?? now.addingTimeInterval(-7 * 86_400)
    transaction.quantity = 1
    transaction.inAppOwnershipType = .purchased
    transaction.environment = .production
    var data = NotificationData()
    data.environment = .production
    data.rawConsumptionRequestReason = reason.rawValue
    var notification = ResponseBodyV2DecodedPayload()
    notification.notificationType = .consumptionRequest
    notification.notificationUUID = "what-if"
    notification.data = data
    notification.signedDate = now
    let request = RefundRequest(
      notification: notification, transaction: transaction, receivedAt: now)
    var gathered = GatheredFacts(request: request, schema: schema)
    var given = Self.defaults
    var named: Set<String> = []
    for pair in facts {
      guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
        throw Problem(
          description: "--fact takes NAME=VALUE, as in usage.consumed=40%, not '\(pair)'")
      }
      let name = String(pair[..<equals])
      // As in a tests file: the second value would silently replace the first.
      guard named.insert(name).inserted else {
        throw Problem(description: "--fact \(name) is given twice: give each fact once")
      }
      given[name] = String(pair[pair.index(after: equals)...])
    }
    for (name, text) in given.sorted(by: { $0.key < $1.key }) {
      guard let fact = schema.policySchema.fact(named: name) else {
        let hint = Suggestions.closest(to: name, among: schema.policySchema.facts.map(\.name))
          .map { " (did you mean '\($0)'?)" }
        throw Problem(description: "--fact \(name): no such fact\(hint ?? "")")
      }
      do {
        // The user's value wins over the notification's: there is no notification here.
        gathered.overrideForBenchmark(
          name, try ValueParser.parse(text, as: fact.type),
          from: named.contains(name) ? "--fact" : "what-if default")
      } catch {
        throw Problem(description: "--fact \(name)=\(text): \(error)")
      }
    }
    return (request, gathered)
  }

  private static func unknown(_ given: String, _ option: String, _ known: [String]) -> Problem {
    let hint = Suggestions.closest(to: given, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    return Problem(
      description:
        "\(option) takes one of \(known.joined(separator: ", ")), not '\(given)'\(hint)")
  }
}
