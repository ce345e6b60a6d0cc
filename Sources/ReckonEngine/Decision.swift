import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

/// What Reckon decided for one request: what to do, the body, which rule decided, why, and
/// where every body field came from.
public struct Decision: Hashable, Sendable {
  /// What happens next.
  public let action: DecisionAction
  /// The body as it would be sent, in its store's shape, when one could be built (also for
  /// skips after a policy decision).
  public let reply: ReplyBody?
  /// The name of the deciding rule, or `otherwise`.
  public let rule: String
  /// The deciding rule's index in the policy, or nil for `otherwise`.
  public let ruleIndex: Int?
  /// Where each body field came from, by the store's field name.
  public var fieldSources: [String: FieldSource] { sourceList.dictionary }
  /// The same, as the builder listed them.
  package let sourceList: FieldSourceList
  /// The policy's trace, when one was asked for.
  public let trace: PolicyTrace?
  /// The facts the decision was made on, with their sources.
  public let facts: GatheredFacts
  /// The policy's name and version.
  public let policyName: String
  /// The policy's version header, if it has one.
  public let policyVersion: String?
  /// When the decision counts as made: the request's receive time.
  public let decidedAt: Date
  /// The `hold` clause that held the decision for review, by name; nil when none did.
  public var heldBy: String? = nil
  /// The store the request came from.
  public var store: FactSchema.Store = .appStore

  /// Why the decision is held, when a `hold` clause held it: `held by hold "NAME"`.
  public var holdReason: String? { heldBy.map { "held by hold \"\($0)\"" } }

  /// Apple's body, when the decision built one for an App Store request.
  public var body: ConsumptionRequest? {
    if case .appStore(let body)? = reply { body } else { nil }
  }

  /// Google Play's answer, when the decision built one for a chargeback review.
  public var answer: ReviewRefundRequest? {
    if case .googlePlay(let answer)? = reply { answer } else { nil }
  }

  /// Whether the decision sends a body now.
  public var responds: Bool {
    if case .respond = action { true } else { false }
  }
}

/// What happens to a request.
public enum DecisionAction: Hashable, Sendable {
  /// Send the body to the store.
  case respond
  /// Queue the body but send only after a person approves it, or an hour before the deadline.
  case hold
  /// Send nothing, for the reason given.
  case skip(SkipReason)
}

/// Why nothing is sent for a request.
public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
  /// The customer did not consent (or consent is unknown); the value is what the fact said.
  case noConsent(String)
  /// The deciding rule said `do not respond`.
  case policyDoesNotRespond(rule: String)
  /// A required body field has no fact and no rule setting it.
  case missingRequiredFact(field: String, fact: String)
  /// A `set` action read a missing fact (or divided by zero), so the field has no value;
  /// `because` says which fact, e.g. `usage.consumed is missing`.
  case setReadsMissingFact(field: String, rule: String, because: String)
  /// The body would break Apple's rules.
  case violatesAppleRules([AppleRuleViolation])
  /// The answer would break Google Play's rules for `orders.reviewrefund`.
  case violatesGooglePlayRules([GooglePlayRuleViolation])
  /// The body holds a percentage or asks for a prorated refund, whose rules depend on the
  /// product type, and the transaction's type is missing or one Reckon does not know.
  case productTypeUnknown

  /// One sentence for a person.
  public var description: String {
    switch self {
    case .noConsent(let detail):
      "no reply: the customer has not consented (customer.consented is \(detail))"
    case .policyDoesNotRespond(let rule): "no reply: rule '\(rule)' says do not respond"
    case .missingRequiredFact(let field, let fact):
      "no reply: \(field) is required, but \(fact) is missing and no rule sets it"
    case .setReadsMissingFact(let field, let rule, let because):
      "no reply: \(rule == "otherwise" ? "'otherwise'" : "rule '\(rule)'") cannot set \(field): \(because)"
    case .violatesAppleRules(let violations):
      // Apple's rule in words first, for the person reading; the error name for searching.
      "no reply: the body would break Apple's rules: "
        + violations.map(\.inWords).joined(separator: " ")
    case .violatesGooglePlayRules(let violations):
      "no reply: the answer would break Google Play's rules: "
        + violations.map(\.description).joined(separator: "; ")
    case .productTypeUnknown:
      "no reply: the transaction's product type is missing or unknown, so the body's "
        + "consumptionPercentage or GRANT_PRORATED cannot be checked against Apple's rules for it"
    }
  }
}

extension SkipReason {
  /// The sentence, with the value the body held where Apple's rule is about its range: a
  /// percentage the policy worked out (`usage.consumed * 2`) would otherwise go unseen.
  public func description(body: ConsumptionRequest?) -> String {
    description + (heldValue(in: body).map { " " + $0 } ?? "")
  }

  /// `The body had 120000 (120%).` when Apple's rule broken is about the range of a value the
  /// body held; nil otherwise.
  public func heldValue(in body: ConsumptionRequest?) -> String? {
    guard case .violatesAppleRules(let violations) = self,
      violations.contains(.consumptionPercentageOutOfRange),
      let milliunits = body?.consumptionPercentage
    else { return nil }
    let share = Value.percent(Double(milliunits) / 1_000).formatted(as: .percent)
    return "The body had \(milliunits) (\(share))."
  }
}

/// Where a body field's value came from.
public enum FieldSource: Hashable, Sendable, CustomStringConvertible {
  /// Copied from a fact.
  case fact(String)
  /// Set by the deciding rule (or `otherwise`).
  case rule(String)
  /// Decided by a default of Reckon's, explained.
  case `default`(String)

  /// A phrase for explanations.
  public var description: String {
    switch self {
    case .fact(let name): "from fact \(name)"
    case .rule(let name): name == "otherwise" ? "set by otherwise" : "set by rule '\(name)'"
    case .default(let why): why
    }
  }
}
