import Foundation
import ReckonAppStore
import ReckonEngine

/// Counts over a dry-run's rows: by outcome (action and preference), by deciding rule, by the
/// customer's reason and by product type; with `--against`, how the answers would change.
public struct DryRunSummary: Equatable, Sendable {
  /// Requests decided.
  public private(set) var decided = 0
  /// Requests that could not be decided (no recorded facts, or a source failed).
  public private(set) var undecided = 0
  /// Decided requests for which no fact source had anything (their transactions are in none):
  /// decided on the notification alone, so e.g. a missing consent is no data, not a refusal.
  public private(set) var withoutFacts = 0
  /// Decided requests by outcome.
  public private(set) var byOutcome: [DryRunOutcome: Int] = [:]
  /// Decided requests by deciding rule name; every rule of the policy, 0 when it decided none.
  public private(set) var byRule: [String: Int] = [:]
  /// Decided requests by reason, then outcome.
  public private(set) var byReason: [String: [DryRunOutcome: Int]] = [:]
  /// Decided requests by product type, then outcome.
  public private(set) var byProductType: [String: [DryRunOutcome: Int]] = [:]
  /// Decided requests that get no reply because the body would break Apple's rules, by deciding
  /// rule: a policy defect that the skip count alone would hide.
  public private(set) var breaksAppleRules: [String: Int] = [:]
  /// The same requests by the Apple rule broken (a body may break several).
  public private(set) var breaksAppleRule: [AppleRuleViolation: Int] = [:]
  /// What the decided requests' purchases cost, in milliunits, by currency, then outcome: the
  /// money each answer is about. Requests without a price or currency are left out.
  public private(set) var purchaseValue: [String: [DryRunOutcome: Int]] = [:]
  /// With `--against`: the same under the other policy's outcomes.
  public private(set) var againstPurchaseValue: [String: [DryRunOutcome: Int]] = [:]
  /// With `--against`: the other policy's outcomes.
  public private(set) var againstByOutcome: [DryRunOutcome: Int] = [:]
  /// With `--against`: requests whose answer would change.
  public private(set) var changed = 0
  /// With `--against`: changes from one outcome to another (same outcome: the body differs).
  public private(set) var transitions: [Transition: Int] = [:]

  /// One kind of change.
  public struct Transition: Hashable, Sendable, Comparable {
    /// The outcome under the policy.
    public let from: DryRunOutcome
    /// The outcome under `--against`.
    public let to: DryRunOutcome

    /// Ordered by from, then to.
    public static func < (left: Transition, right: Transition) -> Bool {
      (left.from, left.to) < (right.from, right.to)
    }
  }

  /// Counts `result`'s rows, unless the dry-run counted them as it made them.
  public init(_ result: DryRunResult) {
    let total = result.tally ?? DryRunTally(counting: result.rows)
    decided = total.decided
    undecided = total.undecided
    withoutFacts = total.withoutFacts
    changed = total.changed
    let width = DryRunOutcome.allCases.count
    for outcome in DryRunOutcome.allCases {
      if total.outcomes[outcome.rawValue] > 0 {
        byOutcome[outcome] = total.outcomes[outcome.rawValue]
      }
      if total.others[outcome.rawValue] > 0 {
        againstByOutcome[outcome] = total.others[outcome.rawValue]
      }
      for to in DryRunOutcome.allCases
      where total.matrix[outcome.rawValue * width + to.rawValue] > 0 {
        transitions[Transition(from: outcome, to: to)] =
          total.matrix[outcome.rawValue * width + to.rawValue]
      }
    }
    for (rule, count) in DryRunTally.byRule(total.appleRules) {
      breaksAppleRules[result.ruleName(rule), default: 0] += count
    }
    breaksAppleRule = total.violations
    byReason = total.reasons.dictionary
    byProductType = total.productTypes.dictionary
    purchaseValue = total.values.dictionary
    againstPurchaseValue = total.otherValues.dictionary
    for (rule, count) in DryRunTally.byRule(total.rules) {
      byRule[result.ruleName(rule), default: 0] += count
    }
    // A rule that decided nothing is listed at 0: that it never fires is often the news (a
    // threshold set wrong), and a missing line is easy to miss.
    if decided > 0 {
      for name in result.ruleNames + ["otherwise"] where byRule[name] == nil { byRule[name] = 0 }
    }
  }

  /// Decided requests by action (`respond`, `hold`, `skip`).
  public var byAction: [String: Int] { grouped(byOutcome) { $0.action } }

  /// Decided requests that respond or hold, by preference (`none` for data only).
  public var byPreference: [String: Int] { grouped(byOutcome) { $0.preference } }

  /// The keys of `purchaseValueByPreference` in the order reports show them: the refund
  /// preferences, `none` (data only), then `no reply`.
  public static let valuePreferences = [
    "GRANT_FULL", "GRANT_PRORATED", "DECLINE", "none", "no reply",
  ]

  /// What the decided requests' purchases cost, in milliunits, by currency, then by the
  /// preference answered (`none` for data only) or `no reply` for skips.
  public var purchaseValueByPreference: [String: [String: Int]] {
    purchaseValue.mapValues { grouped($0) { $0.preference ?? "no reply" } }
  }

  /// The same under the `--against` policy.
  public var againstPurchaseValueByPreference: [String: [String: Int]] {
    againstPurchaseValue.mapValues { grouped($0) { $0.preference ?? "no reply" } }
  }

  /// The `--against` policy's counts by action.
  public var againstByAction: [String: Int] { grouped(againstByOutcome) { $0.action } }

  /// The `--against` policy's counts by preference.
  public var againstByPreference: [String: Int] { grouped(againstByOutcome) { $0.preference } }

  private func grouped(_ counts: [DryRunOutcome: Int], _ key: (DryRunOutcome) -> String?)
    -> [String: Int]
  {
    var result: [String: Int] = [:]
    for (outcome, count) in counts {
      if let name = key(outcome) { result[name] = (result[name] ?? 0).addingSaturated(count) }
    }
    return result
  }
}
