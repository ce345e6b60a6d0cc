import ReckonAppStore

/// What a policy decided for one past request, without the facts and trace: the action, the body
/// Apple would receive and the deciding rule. Two verdicts are equal exactly when the decisions
/// would send the same thing for the same reason.
public struct DryRunVerdict: Hashable, Sendable {
  /// Respond, hold or skip (with why).
  public let action: DecisionAction
  /// The body, when one was built.
  public let body: ConsumptionRequest?
  /// The deciding rule's index, nil for `otherwise`.
  public let ruleIndex: Int?

  /// The verdict of a full decision.
  public init(_ decision: Decision) {
    self.init(action: decision.action, body: decision.body, ruleIndex: decision.ruleIndex)
  }

  /// A verdict from its parts.
  public init(action: DecisionAction, body: ConsumptionRequest?, ruleIndex: Int?) {
    self.action = action
    self.body = body
    self.ruleIndex = ruleIndex
  }

  /// The outcome class the summaries count.
  public var outcome: DryRunOutcome { DryRunOutcome(self) }

  /// Whether Apple would receive something different: another action or another body.
  public func differs(from other: DryRunVerdict) -> Bool {
    outcome != other.outcome || body != other.body && responds
  }

  private var responds: Bool {
    switch action {
    case .respond, .hold: true
    case .skip: false
    }
  }
}

/// A verdict's class for counting: respond or hold with a preference (or data only), or a skip
/// with its kind. Small and ordered, so summaries count in arrays.
public enum DryRunOutcome: Int, CaseIterable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  case respondGrantFull, respondGrantProrated, respondDecline, respondDataOnly
  case holdGrantFull, holdGrantProrated, holdDecline, holdDataOnly
  case skipNoConsent, skipPolicy, skipMissingFact, skipRuleReadsMissingFact, skipAppleRules

  init(_ verdict: DryRunVerdict) {
    let preference: Int
    switch verdict.body?.refundPreference {
    case .grantFull?: preference = 0
    case .grantProrated?: preference = 1
    case .decline?: preference = 2
    case nil: preference = 3
    }
    switch verdict.action {
    case .respond: self = DryRunOutcome(rawValue: preference)!
    case .hold: self = DryRunOutcome(rawValue: 4 + preference)!
    case .skip(.noConsent): self = .skipNoConsent
    case .skip(.policyDoesNotRespond): self = .skipPolicy
    case .skip(.missingRequiredFact): self = .skipMissingFact
    case .skip(.setReadsMissingFact): self = .skipRuleReadsMissingFact
    case .skip(.violatesAppleRules), .skip(.productTypeUnknown): self = .skipAppleRules
    }
  }

  /// `respond`, `hold` or `skip`.
  public var action: String {
    switch rawValue {
    case 0..<4: "respond"
    case 4..<8: "hold"
    default: "skip"
    }
  }

  /// The refund preference sent (or held), `none` for data only, nil for skips.
  public var preference: String? {
    guard rawValue < 8 else { return nil }
    return ["GRANT_FULL", "GRANT_PRORATED", "DECLINE", "none"][rawValue % 4]
  }

  /// Why nothing is sent, for skips.
  public var skipKind: String? {
    switch self {
    case .skipNoConsent: "no consent"
    case .skipPolicy: "policy: do not respond"
    case .skipMissingFact: "required fact missing"
    case .skipRuleReadsMissingFact: "rule set a missing fact"
    case .skipAppleRules: "breaks Apple's rules"
    default: nil
    }
  }

  /// A short label in the policy language's words, e.g. `respond GRANT_FULL`,
  /// `hold share data only`, `skip (no consent)`.
  public var description: String { label(dataOnly: "share data only") }

  /// The label JSON output uses as a key, unchanged since it was first written
  /// (`respond data only` where the text says `respond share data only`), so that readers of
  /// the JSON keep working.
  public var jsonName: String { label(dataOnly: "data only") }

  private func label(dataOnly: String) -> String {
    if let skipKind { return "skip (\(skipKind))" }
    let preference = preference == "none" ? dataOnly : preference ?? ""
    return "\(action) \(preference)"
  }

  /// A preference as text outputs name it: `none` (a body with no refundPreference, as the JSON
  /// and CSV name it) in the policy language's words.
  public static func preferenceLabel(_ preference: String) -> String {
    preference == "none" ? "no preference (share data only)" : preference
  }

  /// Ordered as declared.
  public static func < (left: DryRunOutcome, right: DryRunOutcome) -> Bool {
    left.rawValue < right.rawValue
  }
}
