import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay

/// What a policy decided for one past request, without the facts and trace: the action, the body
/// Apple would receive (or the answer Google Play would) and the deciding rule. Two verdicts are
/// equal exactly when the decisions would send the same thing for the same reason.
public struct DryRunVerdict: Hashable, Sendable {
  // Packed: a dry-run holds two per row, and the plain fields (an action with its reason's
  // strings, an optional body, an optional index) took 96 bytes of each; these take 24.
  /// The reason for a skip, shared by verdicts with the same one; nil for respond and hold.
  private let skipped: SharedSkipReason?
  /// The body's `consumptionPercentage` (Google's `consumptionPercentageMilliunits`) when
  /// `bits` says it has one, else 0.
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

  /// The store whose request it decided.
  public var store: FactSchema.Store { bits & Bits.googlePlay != 0 ? .googlePlay : .appStore }

  /// Apple's body, when one was built for an App Store request.
  public var body: ConsumptionRequest? {
    guard bits & Bits.hasBody != 0, bits & Bits.googlePlay == 0 else { return nil }
    return ConsumptionRequest(
      customerConsented: bits & Bits.consented != 0,
      deliveryStatus: Bits.deliveryStatuses[Int(bits >> Bits.deliveryShift & 0x7)],
      sampleContentProvided: bits & Bits.sampleProvided != 0,
      consumptionPercentage: bits & Bits.hasPercentage != 0 ? percentage : nil,
      refundPreference: Bits.preference(bits))
  }

  /// Google Play's answer, when one was built for a chargeback review.
  public var answer: GooglePlayDryRunAnswer? {
    guard bits & Bits.hasBody != 0, bits & Bits.googlePlay != 0 else { return nil }
    return GooglePlayDryRunAnswer(
      sampleContentProvided: bits & Bits.sampleProvided != 0,
      refundPreference: Bits.googlePreference(bits) ?? .neutral,
      consumptionPercentageMilliunits: bits & Bits.hasPercentage != 0 ? percentage : nil)
  }

  /// The deciding rule's index, nil for `otherwise`.
  public var ruleIndex: Int? { rule < 0 ? nil : Int(rule) }

  /// The verdict of a full decision, for either store.
  public init(_ decision: Decision) {
    guard decision.store == .googlePlay else {
      self.init(action: decision.action, body: decision.body, ruleIndex: decision.ruleIndex)
      return
    }
    var reasons = SharedSkipReasons(capacity: 0)
    self.init(
      action: decision.action, answer: decision.answer.map(GooglePlayDryRunAnswer.init),
      ruleIndex: decision.ruleIndex, sharing: &reasons)
  }

  /// A verdict on a Google Play review, its skip reason shared through `reasons`.
  init(
    action: DecisionAction, answer: GooglePlayDryRunAnswer?, ruleIndex: Int?,
    sharing reasons: inout SharedSkipReasons
  ) {
    var bits = Bits.googlePlay
    skipped = Self.skipped(action, &bits, &reasons)
    if let answer {
      bits |= Bits.hasBody
      if answer.sampleContentProvided { bits |= Bits.sampleProvided }
      if answer.consumptionPercentageMilliunits != nil { bits |= Bits.hasPercentage }
      bits |= Bits.googlePreferenceBits(answer.refundPreference)
    }
    percentage = answer?.consumptionPercentageMilliunits ?? 0
    rule = ruleIndex.map { Int32(exactly: $0)! } ?? -1
    self.bits = bits
  }

  /// The shared skip reason of `action`, nil for respond and hold, which set their bit.
  private static func skipped(
    _ action: DecisionAction, _ bits: inout UInt16, _ reasons: inout SharedSkipReasons
  ) -> SharedSkipReason? {
    switch action {
    case .respond: return nil
    case .hold:
      bits |= Bits.hold
      return nil
    case .skip(let reason): return reasons.shared(reason)
    }
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
    skipped = Self.skipped(action, &bits, &reasons)
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
    if bits & Bits.googlePlay != 0 {
      return DryRunOutcome(
        responding: bits & Bits.hold == 0, googlePlay: Bits.googlePreference(bits) ?? .neutral)
    }
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
    /// Set for a Google Play review: the preference bits then index `googlePreferences`, and
    /// the delivery and consent bits are unused.
    static let googlePlay: UInt16 = 1 << 10
    static let deliveryStatuses = DeliveryStatus.allCases
    static let preferences = RefundPreference.allCases
    static let googlePreferences = GooglePlayRefundPreference.allCases

    static func googlePreference(_ bits: UInt16) -> GooglePlayRefundPreference? {
      let index = Int(bits >> preferenceShift & 0x3)
      return index == 0 ? nil : googlePreferences[index - 1]
    }

    static func googlePreferenceBits(_ preference: GooglePlayRefundPreference) -> UInt16 {
      UInt16(googlePreferences.firstIndex(of: preference)! + 1) << preferenceShift
    }

    static func preference(_ bits: UInt16) -> RefundPreference? {
      let index = Int(bits >> preferenceShift & 0x3)
      return index == 0 ? nil : preferences[index - 1]
    }

    static func preferenceBits(_ preference: RefundPreference?) -> UInt16 {
      guard let preference else { return 0 }
      return UInt16(preferences.firstIndex(of: preference)! + 1) << preferenceShift
    }
  }

  /// Whether the store would receive something different: another action or another body.
  public func differs(from other: DryRunVerdict) -> Bool {
    outcome != other.outcome || (body != other.body || answer != other.answer) && responds
  }

  private var responds: Bool {
    switch action {
    case .respond, .hold: true
    case .skip: false
    }
  }
}
