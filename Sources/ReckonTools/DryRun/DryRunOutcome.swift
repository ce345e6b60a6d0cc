import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay

/// A verdict's class for counting: respond or hold with a preference (or data only), or a skip
/// with its kind. Small and ordered, so summaries count in arrays. Google Play's answers come
/// after Apple's, so that a run of App Store requests alone counts and lists as it always did;
/// `DECLINE` is one class for both stores, which use the same word.
public enum DryRunOutcome: Int, CaseIterable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  case respondGrantFull, respondGrantProrated, respondDecline, respondDataOnly
  case holdGrantFull, holdGrantProrated, holdDecline, holdDataOnly
  case skipNoConsent, skipPolicy, skipMissingFact, skipRuleReadsMissingFact, skipAppleRules
  /// Apple takes no reply for the purchase, whatever the body (family-shared, assigned or
  /// Advanced Commerce): not a defect of the policy, unlike `skipAppleRules`.
  case skipNotAnswerable
  /// Google Play's answers: `APPROVE` and `NEUTRAL` (`DECLINE` is `respondDecline`).
  case respondApprove, respondNeutral, holdApprove, holdNeutral
  /// The answer would break Google Play's rules for `orders.reviewrefund`.
  case skipGooglePlayRules

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

  /// The class of an answer (or held answer) to a Google Play review with `preference`.
  init(responding: Bool, googlePlay preference: GooglePlayRefundPreference) {
    switch (responding, preference) {
    case (true, .approve): self = .respondApprove
    case (true, .decline): self = .respondDecline
    case (true, .neutral): self = .respondNeutral
    case (false, .approve): self = .holdApprove
    case (false, .decline): self = .holdDecline
    case (false, .neutral): self = .holdNeutral
    }
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
    case .violatesAppleRules, .productTypeUnknown: self = .skipAppleRules
    case .violatesGooglePlayRules: self = .skipGooglePlayRules
    }
  }

  /// `respond`, `hold` or `skip`.
  public var action: String {
    switch self {
    case .respondGrantFull, .respondGrantProrated, .respondDecline, .respondDataOnly,
      .respondApprove, .respondNeutral:
      "respond"
    case .holdGrantFull, .holdGrantProrated, .holdDecline, .holdDataOnly, .holdApprove,
      .holdNeutral:
      "hold"
    default: "skip"
    }
  }

  /// The refund preference sent (or held) in its store's words, `none` for Apple's data only,
  /// nil for skips.
  public var preference: String? {
    switch self {
    case .respondGrantFull, .holdGrantFull: "GRANT_FULL"
    case .respondGrantProrated, .holdGrantProrated: "GRANT_PRORATED"
    case .respondDecline, .holdDecline: "DECLINE"
    case .respondDataOnly, .holdDataOnly: "none"
    case .respondApprove, .holdApprove: "APPROVE"
    case .respondNeutral, .holdNeutral: "NEUTRAL"
    default: nil
    }
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
    case .skipGooglePlayRules: "breaks Google Play's rules"
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
