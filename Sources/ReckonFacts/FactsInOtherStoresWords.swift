import ReckonPolicy

/// A lookup that found a request's facts and gave some in another store's words: the facts it
/// read, without those, and the values it left out. A decision that reads none of them is made
/// on the rest, and one that does waits, as for a failed source. Thrown by the JSON and SQLite
/// sources, in their own errors where their lookups are typed (`in(_:)` finds it there).
public struct FactsInOtherStoresWords: Error, Hashable, Sendable, CustomStringConvertible {
  /// The facts read.
  public let facts: [String: Value]
  /// The values left out, each with where it was given.
  public let values: [OtherStoresValue]

  /// Creates the error.
  public init(facts: [String: Value], values: [OtherStoresValue]) {
    self.facts = facts
    self.values = values
  }

  /// The facts left out.
  public var unreadFacts: Set<String> { Set(values.map(\.fact)) }

  /// Each value left out, where it was given and why, separated by semicolons.
  public var description: String { values.map(\.description).joined(separator: "; ") }

  /// The error itself, or the one a JSON or SQLite source's typed error holds; nil for another.
  public static func `in`(_ error: any Error) -> FactsInOtherStoresWords? {
    switch error {
    case let words as FactsInOtherStoresWords: words
    case JSONFileFactSourceError.otherStoresValues(let words): words
    case SQLiteFactSourceError.otherStoresValues(let words): words
    default: nil
    }
  }
}
