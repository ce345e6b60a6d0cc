import Foundation
import ReckonAppStore
import ReckonEngine

/// The counts of some rows, in arrays indexed by outcome, which a summary is made from: each
/// thread of a dry-run counts its rows as it makes them, while they are still in its cache.
/// Parts are merged in order.
struct DryRunTally {
  var decided = 0
  var undecided = 0
  var withoutFacts = 0
  var changed = 0
  var outcomes = [Int](repeating: 0, count: DryRunOutcome.allCases.count)
  var others = [Int](repeating: 0, count: DryRunOutcome.allCases.count)
  var matrix = [Int](
    repeating: 0, count: DryRunOutcome.allCases.count * DryRunOutcome.allCases.count)
  /// By deciding rule index plus one, 0 for `otherwise`.
  var rules: [Int] = []
  /// The skips for Apple's rules, by deciding rule index plus one (0 for `otherwise`) and by
  /// rule broken.
  var appleRules: [Int] = []
  var violations: [AppleRuleViolation: Int] = [:]
  var reasons = OutcomeCounts()
  var productTypes = OutcomeCounts()
  /// Purchase values in milliunits, by currency.
  var values = OutcomeCounts()
  var otherValues = OutcomeCounts()

  /// Counts `rows`; many are counted in parts side by side.
  init(counting rows: [DryRunRow]) {
    let parts = rows.count < 1 << 16 ? 1 : ProcessInfo.processInfo.activeProcessorCount
    let tallies = UnsafeMutableBufferPointer<DryRunTally>.allocate(capacity: parts)
    tallies.initialize(repeating: DryRunTally())
    defer { tallies.deinitialize().deallocate() }
    // Each part writes only its own tally.
    nonisolated(unsafe) let shared = tallies
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      var tally = DryRunTally()
      for index in (rows.count * part / parts)..<(rows.count * (part + 1) / parts) {
        tally.count(rows[index])
      }
      shared[part] = tally
    }
    self = tallies[0]
    for part in 1..<parts { merge(tallies[part]) }
  }

  /// Nothing counted yet.
  init() {}

  /// Adds `row`.
  mutating func count(_ row: DryRunRow) {
    guard let verdict = row.verdict else {
      undecided += 1
      return
    }
    decided += 1
    if !row.factsFound { withoutFacts += 1 }
    let outcome = verdict.outcome
    outcomes[outcome.rawValue] += 1
    DryRunTally.add(verdict.ruleIndex, to: &rules)
    if outcome == .skipAppleRules, case .skip(.violatesAppleRules(let broken)) = verdict.action {
      DryRunTally.add(verdict.ruleIndex, to: &appleRules)
      for violation in broken { violations[violation, default: 0] += 1 }
    }
    reasons.add(row.reason ?? "none", outcome)
    // A Google Play review names no product: it is no "unknown" product type.
    if row.store == .appStore { productTypes.add(row.productType ?? "unknown", outcome) }
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

  mutating func merge(_ other: DryRunTally) {
    decided += other.decided
    undecided += other.undecided
    withoutFacts += other.withoutFacts
    changed += other.changed
    for index in outcomes.indices {
      outcomes[index] += other.outcomes[index]
      others[index] += other.others[index]
    }
    for index in matrix.indices { matrix[index] += other.matrix[index] }
    for (position, count) in other.rules.enumerated() {
      DryRunTally.add(position == 0 ? nil : position - 1, to: &rules, count)
    }
    for (position, count) in other.appleRules.enumerated() {
      DryRunTally.add(position == 0 ? nil : position - 1, to: &appleRules, count)
    }
    violations.merge(other.violations, uniquingKeysWith: +)
    reasons.merge(other.reasons)
    productTypes.merge(other.productTypes)
    values.merge(other.values)
    otherValues.merge(other.otherValues)
  }
}

extension DryRunTally {
  /// Adds `count` under `rule` (nil for `otherwise`) in `counts`, indexed by rule plus one.
  fileprivate static func add(_ rule: Int?, to counts: inout [Int], _ count: Int = 1) {
    let position = rule.map { $0 + 1 } ?? 0
    if position >= counts.count {
      counts.append(contentsOf: repeatElement(0, count: position + 1 - counts.count))
    }
    counts[position] += count
  }

  /// The counts by rule, as (index, nil for `otherwise`, count) for rules that have one.
  static func byRule(_ counts: [Int]) -> [(rule: Int?, count: Int)] {
    counts.enumerated().filter { $0.element > 0 }.map {
      ($0.offset == 0 ? nil : $0.offset - 1, $0.element)
    }
  }
}
