import ReckonAppStore
import ReckonEngine

/// What a policy decided for one past request, without the facts and trace: the action, the body
/// Apple would receive and the deciding rule. Two verdicts are equal exactly when the decisions
/// would send the same thing for the same reason.
public struct DryRunVerdict: Hashable, Sendable {
  // Packed: a dry-run holds two per row, and the plain fields (an action with its reason's
  // strings, an optional body, an optional index) took 96 bytes of each; these take 24.
  /// The reason for a skip, shared by verdicts with the same one; nil for respond and hold.
  private let skipped: SharedSkipReason?
  /// The body's `consumptionPercentage` when `bits` says it has one, else 0.
  private let percentage: Int
  /// The deciding rule's index, -1 for `otherwise`.
  private let rule: Int32
  /// Hold or respond, and the body's presence and other fields (see `Bits`).
  private let bits: UInt16

  /// Respond, hold or skip (with why).
  public var action: DecisionAction {
    if let skipped { return .skip(skipped.reason) }
    return bits & Bits.hold != 0 ? .hold : .respond
  }

  /// The body, when one was built.
  public var body: ConsumptionRequest? {
    guard bits & Bits.hasBody != 0 else { return nil }
    return ConsumptionRequest(
      customerConsented: bits & Bits.consented != 0,
      deliveryStatus: Bits.deliveryStatuses[Int(bits >> Bits.deliveryShift & 0x7)],
      sampleContentProvided: bits & Bits.sampleProvided != 0,
      consumptionPercentage: bits & Bits.hasPercentage != 0 ? percentage : nil,
      refundPreference: Bits.preference(bits))
  }

  /// The deciding rule's index, nil for `otherwise`.
  public var ruleIndex: Int? { rule < 0 ? nil : Int(rule) }

  /// The verdict of a full decision.
  public init(_ decision: Decision) {
    self.init(action: decision.action, body: decision.body, ruleIndex: decision.ruleIndex)
  }

  /// A verdict from its parts.
  public init(action: DecisionAction, body: ConsumptionRequest?, ruleIndex: Int?) {
    var reasons = SharedSkipReasons(capacity: 0)
    self.init(action: action, body: body, ruleIndex: ruleIndex, sharing: &reasons)
  }

  /// A verdict from its parts, its skip reason shared through `reasons` with verdicts that
  /// have the same one.
  init(
    action: DecisionAction, body: ConsumptionRequest?, ruleIndex: Int?,
    sharing reasons: inout SharedSkipReasons
  ) {
    var bits: UInt16 = 0
    switch action {
    case .respond: skipped = nil
    case .hold:
      skipped = nil
      bits |= Bits.hold
    case .skip(let reason): skipped = reasons.shared(reason)
    }
    if let body {
      bits |= Bits.hasBody
      if body.customerConsented { bits |= Bits.consented }
      if body.sampleContentProvided { bits |= Bits.sampleProvided }
      let delivery = Bits.deliveryStatuses.firstIndex(of: body.deliveryStatus)!
      bits |= UInt16(delivery) << Bits.deliveryShift
      if body.consumptionPercentage != nil { bits |= Bits.hasPercentage }
      bits |= Bits.preferenceBits(body.refundPreference)
    }
    percentage = body?.consumptionPercentage ?? 0
    // A policy has far fewer rules than this; the index is kept whole, never cut short.
    rule = ruleIndex.map { Int32(exactly: $0)! } ?? -1
    self.bits = bits
  }

  /// The outcome class the summaries count.
  public var outcome: DryRunOutcome {
    if let skipped { return skipped.outcome }
    return DryRunOutcome(responding: bits & Bits.hold == 0, preference: Bits.preference(bits))
  }

  /// What `bits` holds, by bit.
  private enum Bits {
    static let hold: UInt16 = 1 << 0
    static let hasBody: UInt16 = 1 << 1
    static let consented: UInt16 = 1 << 2
    static let sampleProvided: UInt16 = 1 << 3
    static let hasPercentage: UInt16 = 1 << 4
    /// Three bits: the index in `deliveryStatuses`.
    static let deliveryShift: UInt16 = 5
    /// Two bits: none, then `preferences`.
    static let preferenceShift: UInt16 = 8
    static let deliveryStatuses = DeliveryStatus.allCases
    static let preferences = RefundPreference.allCases

    static func preference(_ bits: UInt16) -> RefundPreference? {
      let index = Int(bits >> preferenceShift & 0x3)
      return index == 0 ? nil : preferences[index - 1]
    }

    static func preferenceBits(_ preference: RefundPreference?) -> UInt16 {
      guard let preference else { return 0 }
      return UInt16(preferences.firstIndex(of: preference)! + 1) << preferenceShift
    }
  }

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
  /// Apple takes no reply for the purchase, whatever the body (family-shared, assigned or
  /// Advanced Commerce): not a defect of the policy, unlike `skipAppleRules`.
  case skipNotAnswerable

  /// The class of a reply (or held reply) with `preference`, nil for data only.
  init(responding: Bool, preference: RefundPreference?) {
    let column: Int
    switch preference {
    case .grantFull?: column = 0
    case .grantProrated?: column = 1
    case .decline?: column = 2
    case nil: column = 3
    }
    self = DryRunOutcome(rawValue: (responding ? 0 : 4) + column)!
  }

  /// The class of a skip for `reason`.
  init(skipping reason: SkipReason) {
    switch reason {
    case .noConsent: self = .skipNoConsent
    case .policyDoesNotRespond: self = .skipPolicy
    case .missingRequiredFact: self = .skipMissingFact
    case .setReadsMissingFact: self = .skipRuleReadsMissingFact
    case .violatesAppleRules(let broken) where broken.contains(where: \.isAboutTheTransaction):
      self = .skipNotAnswerable
    case .violatesAppleRules, .productTypeUnknown, .violatesGooglePlayRules:
      self = .skipAppleRules
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
    case .skipNotAnswerable: "Apple takes no reply for this purchase"
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
