import ReckonEngine

/// Outcome counts (or sums) under a few distinct keys (reasons, product types, currencies). Keys are found by
/// comparison, mostly of one shared string with itself, which costs far less per row than
/// hashing them into nested dictionaries; many distinct keys fall back to a dictionary index.
struct OutcomeCounts {
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
