/// "Did you mean" suggestions by edit distance.
public enum Suggestions {
  /// The candidate closest to `word`, if it is close enough to be a likely typo.
  public static func closest(to word: String, among candidates: [String]) -> String? {
    let limit = max(2, word.count / 3)
    var best: (candidate: String, distance: Int)?
    let lowered = word.lowercased()
    for candidate in candidates where abs(candidate.count - word.count) <= limit {
      let other = candidate.lowercased()
      // Close in spelling, opposite in meaning: UNDELIVERED is no typo of DELIVERED.
      if negates(lowered, other) || negates(other, lowered) { continue }
      let distance = editDistance(lowered, other)
      if distance <= limit, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// Prefixes that turn a word into its opposite.
  private static let negations = ["un", "non_", "non", "not_", "no_", "in", "dis"]

  /// Whether `word` is `other` with a negating prefix (both lower-cased).
  private static func negates(_ word: String, _ other: String) -> Bool {
    negations.contains { word.count == other.count + $0.count && word == $0 + other }
  }

  /// The Levenshtein distance between two strings, by characters.
  public static func editDistance(_ first: String, _ second: String) -> Int {
    let a = Array(first)
    let b = Array(second)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
