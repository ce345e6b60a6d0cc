import Foundation
import ReckonAppStore

/// Counts over a dry-run's rows: by outcome (action and preference), by deciding rule, by the
/// customer's reason and by product type; with `--against`, how the answers would change.
public struct DryRunSummary: Sendable {
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

  /// Counts `result`'s rows; a large result is counted in parts side by side.
  public init(_ result: DryRunResult) {
    let rows = result.rows
    let parts = rows.count < 1 << 16 ? 1 : ProcessInfo.processInfo.activeProcessorCount
    let tallies = UnsafeMutableBufferPointer<Tally>.allocate(capacity: parts)
    tallies.initialize(repeating: Tally())
    defer { tallies.deinitialize().deallocate() }
    // Each part writes only its own tally.
    nonisolated(unsafe) let shared = tallies
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      var tally = Tally()
      for index in (rows.count * part / parts)..<(rows.count * (part + 1) / parts) {
        tally.count(rows[index])
      }
      shared[part] = tally
    }
    var total = tallies[0]
    for part in 1..<parts { total.merge(tallies[part]) }
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
    for (index, count) in total.appleRules {
      breaksAppleRules[result.ruleName(index < 0 ? nil : index), default: 0] += count
    }
    breaksAppleRule = total.violations
    byReason = total.reasons.dictionary
    byProductType = total.productTypes.dictionary
    purchaseValue = total.values.dictionary
    againstPurchaseValue = total.otherValues.dictionary
    for (index, count) in total.rules {
      byRule[result.ruleName(index < 0 ? nil : index), default: 0] += count
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

/// The counts of some rows, in arrays indexed by outcome; parts are merged in order.
private struct Tally {
  var decided = 0
  var undecided = 0
  var withoutFacts = 0
  var changed = 0
  var outcomes = [Int](repeating: 0, count: DryRunOutcome.allCases.count)
  var others = [Int](repeating: 0, count: DryRunOutcome.allCases.count)
  var matrix = [Int](
    repeating: 0, count: DryRunOutcome.allCases.count * DryRunOutcome.allCases.count)
  /// By deciding rule index, -1 for `otherwise`.
  var rules: [Int: Int] = [:]
  /// The skips for Apple's rules, by deciding rule index (-1 for `otherwise`) and by rule broken.
  var appleRules: [Int: Int] = [:]
  var violations: [AppleRuleViolation: Int] = [:]
  var reasons = OutcomeCounts()
  var productTypes = OutcomeCounts()
  /// Purchase values in milliunits, by currency.
  var values = OutcomeCounts()
  var otherValues = OutcomeCounts()

  mutating func count(_ row: DryRunRow) {
    guard let verdict = row.verdict else {
      undecided += 1
      return
    }
    decided += 1
    if !row.factsFound { withoutFacts += 1 }
    let outcome = verdict.outcome
    outcomes[outcome.rawValue] += 1
    rules[verdict.ruleIndex ?? -1, default: 0] += 1
    if case .skip(.violatesAppleRules(let broken)) = verdict.action {
      appleRules[verdict.ruleIndex ?? -1, default: 0] += 1
      for violation in broken { violations[violation, default: 0] += 1 }
    }
    reasons.add(row.reason ?? "none", outcome)
    productTypes.add(row.productType ?? "unknown", outcome)
    let price = row.currency.flatMap { currency in row.price.map { (currency, Int($0)) } }
    if let (currency, amount) = price { values.add(currency, outcome, amount: amount) }
    guard let against = row.against else { return }
    let other = against.outcome
    others[other.rawValue] += 1
    if let (currency, amount) = price { otherValues.add(currency, other, amount: amount) }
    if verdict.differs(from: against) {
      changed += 1
      matrix[outcome.rawValue * outcomes.count + other.rawValue] += 1
    }
  }

  mutating func merge(_ other: Tally) {
    decided += other.decided
    undecided += other.undecided
    withoutFacts += other.withoutFacts
    changed += other.changed
    for index in outcomes.indices {
      outcomes[index] += other.outcomes[index]
      others[index] += other.others[index]
    }
    for index in matrix.indices { matrix[index] += other.matrix[index] }
    rules.merge(other.rules, uniquingKeysWith: +)
    appleRules.merge(other.appleRules, uniquingKeysWith: +)
    violations.merge(other.violations, uniquingKeysWith: +)
    reasons.merge(other.reasons)
    productTypes.merge(other.productTypes)
    values.merge(other.values)
    otherValues.merge(other.otherValues)
  }
}

/// Outcome counts (or sums) under a few distinct keys (reasons, product types, currencies). Keys are found by
/// comparison, mostly of one shared string with itself, which costs far less per row than
/// hashing them into nested dictionaries; many distinct keys fall back to a dictionary index.
private struct OutcomeCounts {
  private var keys: [String] = []
  private var counts: [[Int]] = []
  private var index: [String: Int] = [:]
  private var last = -1

  mutating func add(_ key: String, _ outcome: DryRunOutcome, amount: Int = 1) {
    let position = position(of: key)
    counts[position][outcome.rawValue] = counts[position][outcome.rawValue].addingSaturated(amount)
    last = position
  }

  private mutating func position(of key: String) -> Int {
    if last >= 0, keys[last] == key { return last }
    if keys.count <= 16 {
      if let found = keys.firstIndex(of: key) { return found }
    } else if let found = index[key] {
      return found
    }
    keys.append(key)
    counts.append(Array(repeating: 0, count: DryRunOutcome.allCases.count))
    if keys.count == 17 {
      for (position, key) in keys.enumerated() { index[key] = position }
    } else if keys.count > 17 {
      index[key] = keys.count - 1
    }
    return keys.count - 1
  }

  /// Adds `other`'s counts.
  mutating func merge(_ other: OutcomeCounts) {
    for (key, row) in zip(other.keys, other.counts) {
      let position = position(of: key)
      for index in row.indices {
        counts[position][index] = counts[position][index].addingSaturated(row[index])
      }
    }
  }

  /// The counts as the summary holds them: by key, then outcome, leaving out zeros.
  var dictionary: [String: [DryRunOutcome: Int]] {
    var result: [String: [DryRunOutcome: Int]] = [:]
    for (key, row) in zip(keys, counts) {
      var byOutcome: [DryRunOutcome: Int] = [:]
      // Sums of prices may be negative (a refund recorded as a negative price).
      for outcome in DryRunOutcome.allCases where row[outcome.rawValue] != 0 {
        byOutcome[outcome] = row[outcome.rawValue]
      }
      result[key] = byOutcome
    }
    return result
  }
}
