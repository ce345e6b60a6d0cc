import Foundation
import ReckonEngine

/// Counts that share one total, as the reports list them: most first, equal counts in a given
/// order, each with its share of the total rounded so that the shares add up to 100.0% (just
/// under when equal counts cannot all round up alike).
enum CountTable {
  /// `counts` most first; equal counts by `order` (a rule's place in the policy, say), then by
  /// name.
  static func sorted(_ counts: [String: Int], order: (String) -> Int = { _ in 0 })
    -> [(label: String, value: Int)]
  {
    let ranked: [(label: String, value: Int, rank: Int)] = counts.map {
      ($0.key, $0.value, order($0.key))
    }
    return ranked.sorted { left, right in
      if left.value != right.value { return left.value > right.value }
      if left.rank != right.rank { return left.rank < right.rank }
      return left.label < right.label
    }.map { ($0.label, $0.value) }
  }

  /// Each count's share of `total` in tenths of a percent, by largest remainder: every share is
  /// its exact value rounded down, and the tenths still missing from 1000 go to the largest
  /// remainders. Equal counts always show equal shares: the counts of one size take a tenth each
  /// or none, so when they cannot all have one the shares add up to a little under 100%
  /// (three thirds are 33.3% each). When the counts do not cover the total, the rest takes part
  /// as one more share, so the counts' shares add up to what they are of the whole.
  static func tenths(_ counts: [Int], of total: Int) -> [Int] {
    guard total > 0 else { return counts.map { _ in 0 } }
    var parts = counts
    let rest = total - counts.reduce(0, +)
    if rest > 0 { parts.append(rest) }
    var tenths = parts.map { $0 * 1000 / total }
    var missing = 1000 - tenths.reduce(0, +)
    let sizes = Set(parts).filter { $0 * 1000 % total > 0 }.sorted {
      $0 * 1000 % total > $1 * 1000 % total || ($0 * 1000 % total == $1 * 1000 % total && $0 > $1)
    }
    for size in sizes {
      let alike = parts.indices.filter { parts[$0] == size }
      guard alike.count <= missing else { break }
      for index in alike { tenths[index] += 1 }
      missing -= alike.count
    }
    return Array(tenths.prefix(counts.count))
  }

  /// The shares of `tenths` as the reports print them, `83.9%`, right-aligned in six columns.
  static func shares(_ counts: [Int], of total: Int) -> [String] {
    tenths(counts, of: total).map {
      let text = "\($0 / 10).\($0 % 10)%"
      return String(repeating: " ", count: max(0, 6 - text.count)) + text
    }
  }
}
