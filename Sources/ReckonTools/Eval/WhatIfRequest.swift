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

  /// The customer's reason, in the policy's words (`LEGAL`); nil for UNINTENDED_PURCHASE.
  public var reason: String?
  /// The product type, in the policy's words (`CONSUMABLE`); nil for a consumable.
  public var productType: String?
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
    let givenReason = reason ?? ConsumptionRequestReason.unintendedPurchase.rawValue
    guard let reason = ConsumptionRequestReason(rawValue: givenReason) else {
      throw Self.unknown(
        givenReason, "--reason", ConsumptionRequestReason.allCases.map(\.rawValue))
    }
    let types = ProductType.allCases
    let givenType = productType ?? ProductType.consumable.policyName
    guard let type = types.first(where: { $0.policyName == givenType }) else {
      throw Self.unknown(givenType, "--product-type", types.map(\.policyName))
    }
    try refuseTwiceGiven()
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
      given[name] = try Self.unquoted(String(pair[pair.index(after: equals)...]), fact: name)
    }
    for (name, text) in given.sorted(by: { $0.key < $1.key }) {
      guard let fact = schema.policySchema.fact(named: name) else {
        let hint = Suggestions.closest(to: name, among: schema.policySchema.facts.map(\.name))
          .map { " (did you mean '\($0)'?)" }
        throw Problem(description: "--fact \(name): no such fact\(hint ?? "")")
      }
      let value: Value
      do { value = try ValueParser.parse(text, as: fact.type) } catch {
        throw Problem(description: "--fact \(name)=\(text): \(error)")
      }
      // As a tests file refuses them: a request no store sends decides for no real reason.
      if let problem = TestFacts.impossibility(
        name, value, now: .timestamp(now.timeIntervalSince1970), nowName: "the request's time")
      {
        throw Problem(description: "--fact \(name)=\(text) \(problem.message) (\(problem.hint))")
      }
      // The user's value wins over the notification's: there is no notification here.
      gathered.overrideForBenchmark(
        name, value, from: named.contains(name) ? "--fact" : "what-if default")
    }
    if let purchaseDate, purchaseDate > now {
      throw Problem(
        description:
          "--purchase-date is after the request's time: a request comes after the purchase it asks about"
      )
    }
    return (request, gathered)
  }

  /// The facts the request's own options give, which a `--fact` must not give again: one of
  /// the two values would silently win. `now` is the request's time, which the purchase's
  /// default date counts back from.
  private func refuseTwiceGiven() throws(Problem) {
    let names = Set(
      facts.compactMap { pair in pair.firstIndex(of: "=").map { String(pair[..<$0]) } })
    if names.contains("now") {
      throw Problem(description: "--fact now: give the request's time with --now")
    }
    for (fact, option, given) in [
      ("reason", "--reason", reason != nil), ("product.type", "--product-type", productType != nil),
      ("purchase.date", "--purchase-date", purchaseDate != nil),
    ] where given && names.contains(fact) {
      throw Problem(description: "--fact \(fact) and \(option) both give it: give it once")
    }
  }

  /// A value as the language writes it: text (or a time) between double quotes, decoded as a
  /// policy's string is; anything else as given. Without this a quoted product id kept its
  /// quotes and never equalled the policy's.
  static func unquoted(_ written: String, fact: String) throws(Problem) -> String {
    guard written.hasPrefix("\"") else { return written }
    let tokens = Lexer.tokenize(SourceFile(path: "--fact", text: written))
    guard tokens.diagnostics.isEmpty, tokens.tokens.count == 2,
      tokens.tokens[0].kind == .string, tokens.tokens[1].kind == .endOfFile
    else {
      throw Problem(
        description:
          "--fact \(fact): \(written) is not one text between double quotes, as in \"com.example.coins\""
      )
    }
    return tokens.tokens[0].text
  }

  private static func unknown(_ given: String, _ option: String, _ known: [String]) -> Problem {
    let hint = Suggestions.closest(to: given, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    return Problem(
      description:
        "\(option) takes one of \(known.joined(separator: ", ")), not '\(given)'\(hint)")
  }
}
