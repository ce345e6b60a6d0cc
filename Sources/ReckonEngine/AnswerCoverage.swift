import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// Which kinds of request a policy leaves without any reply, found by deciding a built-in sample
/// of requests before the policy goes live: every product type with every delivery status, each
/// for every refund reason and for usage missing, 0%, 50% and 100%, the customer consenting.
///
/// A kind of request (a product type with a delivery status) is unanswered when no request of it
/// in the sample gets a reply, and at least one gets none for a reason the policy did not choose:
/// a body Apple's rules refuse, or a field no fact or rule supplies. A rule that says
/// `do not respond` chose; `otherwise refund GRANT_PRORATED` for an undelivered purchase did not.
/// A policy with unanswered kinds is refused where policies go live (`reckon serve`, its reloads,
/// `reckon check`) unless its file says `# reckon: allow-unanswered` on a line of its own.
public struct AnswerCoverage: Sendable {
  /// A kind of request no sample request of which got a reply, with why the first did not.
  public struct Gap: Hashable, Sendable {
    /// The product type.
    public let productType: ProductType
    /// The delivery status.
    public let deliveryStatus: DeliveryStatus
    /// Why its first sample request got no reply.
    public let reason: SkipReason
    /// The rule that decided that request, or nil for `otherwise`.
    public let ruleIndex: Int?
  }

  /// The comment that lets a policy with unanswered kinds go live.
  public static let optInComment = "# reckon: allow-unanswered"

  /// The kinds of request the policy leaves unanswered, in product type and status order.
  public let gaps: [Gap]

  /// Decides the sample with `policy`, checked against `schema`.
  public init(policy: CompiledPolicy, schema: FactSchema) {
    let decider = Decider(policy: policy, schema: schema)
    var gaps: [Gap] = []
    for productType in ProductType.allCases {
      for deliveryStatus in DeliveryStatus.allCases {
        var answered = false
        var unchosen: (SkipReason, Int?)?
        sample: for request in Self.requests(productType) {
          for usage in Self.usages {
            let decision = decider.decide(
              request, facts: Self.facts(request, deliveryStatus, usage, schema: schema))
            switch decision.action {
            case .respond, .hold:
              answered = true
              break sample
            case .skip(.policyDoesNotRespond):
              continue
            case .skip(let reason):
              if unchosen == nil { unchosen = (reason, decision.ruleIndex) }
            }
          }
        }
        if !answered, let (reason, ruleIndex) = unchosen {
          gaps.append(
            Gap(
              productType: productType, deliveryStatus: deliveryStatus, reason: reason,
              ruleIndex: ruleIndex))
        }
      }
    }
    self.gaps = gaps
  }

  /// Whether `text` carries the opt-in comment on a line of its own (words after it, saying
  /// why, are allowed).
  public static func optsIn(_ text: String) -> Bool {
    text.split(whereSeparator: \.isNewline).contains { line in
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix(optInComment) else { return false }
      let rest = trimmed.dropFirst(optInComment.count)
      return rest.first.map { $0 == " " || $0 == "\t" } ?? true
    }
  }

  /// One error for each set of product types left unanswered alike (the same delivery
  /// statuses, decided by the same rule for the same reason), at that rule; none when the
  /// policy's file opts in.
  public static func diagnostics(for policy: CompiledPolicy, schema: FactSchema) -> [Diagnostic] {
    guard !optsIn(policy.checked.source.text) else { return [] }
    let gaps = AnswerCoverage(policy: policy, schema: schema).gaps
    struct Alike: Hashable {
      let statuses: [DeliveryStatus]
      let ruleIndex: Int?
      let reason: SkipReason
    }
    var groups: [(alike: Alike, types: [ProductType])] = []
    for productType in ProductType.allCases {
      let ofType = gaps.filter { $0.productType == productType }
      guard let first = ofType.first else { continue }
      let alike = Alike(
        statuses: ofType.map(\.deliveryStatus), ruleIndex: first.ruleIndex, reason: first.reason)
      if let index = groups.firstIndex(where: { $0.alike == alike }) {
        groups[index].types.append(productType)
      } else {
        groups.append((alike, [productType]))
      }
    }
    return groups.map { alike, types in
      let subject =
        alike.ruleIndex == nil ? "'otherwise'" : "rule '\(policy.ruleName(alike.ruleIndex))'"
      let why = alike.reason.description.replacingOccurrences(of: "no reply: ", with: "")
      let span =
        alike.ruleIndex.map { policy.checked.rules[$0].nameSpan }
        ?? policy.checked.otherwiseSpan ?? SourceSpan(start: 0, end: 0)
      return Diagnostic(
        .unansweredRequests, .error,
        "no \(list(types.map(\.policyName))) request with \(statuses(alike.statuses)) would get "
          + "a reply: \(subject) decides it and \(why)",
        at: span,
        hint: "answer these requests in a rule above, or, if no reply is what you want, add "
          + "the line '\(optInComment)' to the file")
    }
  }

  /// `A`, `A or B`, `A, B or C`.
  private static func list(_ names: [String]) -> String {
    names.count < 2
      ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// The delivery statuses, said as briefly as they allow.
  private static func statuses(_ statuses: [DeliveryStatus]) -> String {
    if statuses.count == DeliveryStatus.allCases.count { return "any delivery.status" }
    if statuses == DeliveryStatus.allCases.filter(\.isUndelivered) {
      return "delivery.status other than DELIVERED"
    }
    return "delivery.status " + list(statuses.map(\.rawValue))
  }

  /// Usage missing, none, half and all of it.
  private static let usages: [Double?] = [nil, 0, 50, 100]

  /// A request of `productType` for each refund reason Apple sends, received at a fixed time.
  private static func requests(_ productType: ProductType) -> [RefundRequest] {
    let receivedAt = Date(timeIntervalSince1970: 1_798_761_600)
    return ConsumptionRequestReason.allCases.map { reason in
      var transaction = JWSTransactionDecodedPayload()
      transaction.transactionId = "reckon-sample"
      transaction.originalTransactionId = "reckon-sample"
      transaction.productId = "reckon.sample"
      transaction.rawType = productType.rawValue
      transaction.purchaseDate = receivedAt.addingTimeInterval(-7 * 86_400)
      transaction.quantity = 1
      transaction.price = 4_990
      transaction.currency = "USD"
      transaction.storefront = "USA"
      transaction.environment = .production
      var data = NotificationData()
      data.environment = .production
      data.rawConsumptionRequestReason = reason.rawValue
      var notification = ResponseBodyV2DecodedPayload()
      notification.rawNotificationType = NotificationType.consumptionRequest.rawValue
      notification.data = data
      notification.signedDate = receivedAt
      return RefundRequest(
        notification: notification, transaction: transaction, receivedAt: receivedAt)
    }
  }

  /// The request's facts with those a fact source would add: the customer consented, no
  /// sample, `deliveryStatus`, `usage` (missing when nil), a customer of a year with no refunds.
  private static func facts(
    _ request: RefundRequest, _ deliveryStatus: DeliveryStatus, _ usage: Double?,
    schema: FactSchema
  ) -> GatheredFacts {
    var facts = GatheredFacts(request: request, schema: schema)
    var added: [String: Value] = [
      "customer.consented": .boolean(true),
      "product.sample_offered": .boolean(false),
      "customer.account_age": .duration(365 * 86_400),
      "customer.lifetime_spent": .money(49_900, currency: "USD"),
      "customer.lifetime_refunded": .money(0, currency: "USD"),
      "customer.refunds_last_90_days": .number(0),
      "history.earlier_requests": .number(0),
      "history.earlier_refunds": .number(0),
    ]
    if let status = FactSchema.deliveryStatus.ordinal(of: deliveryStatus.rawValue) {
      added["delivery.status"] = .enumeration(status)
    }
    if let usage { added["usage.consumed"] = .percent(usage) }
    facts.add(added.filter { schema.origin(of: $0.key) != nil }, from: "sample", schema: schema)
    return facts
  }
}

extension PolicyLoader.Result {
  /// The result with `AnswerCoverage`'s errors added, and no policy when there are any: what a
  /// policy must pass to go live.
  public func withAnswerCoverage(schema: FactSchema) -> PolicyLoader.Result {
    guard let policy else { return self }
    let found = AnswerCoverage.diagnostics(for: policy, schema: schema)
    guard !found.isEmpty else { return self }
    let all = (diagnostics + found).sorted {
      ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end)
    }
    return PolicyLoader.Result(policy: nil, diagnostics: all, source: source)
  }
}
