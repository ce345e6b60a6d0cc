import ReckonPolicy

/// A value a source gave in another store's words. It is left out of the source's facts, and
/// a decision that reads it waits, as for a source that failed, rather than be made without it.
public struct OtherStoresValue: Hashable, Sendable, CustomStringConvertible {
  /// The fact's name.
  public let fact: String
  /// The value as the source wrote it, without the spaces around it.
  public let value: String
  /// The store whose word it is.
  public let store: FactSchema.Store
  /// The store of the request that looked it up.
  public let requestStore: FactSchema.Store
  /// The values a request of `requestStore` takes for the fact.
  public let expected: [String]
  /// Where the source gave it: `facts.json: byAppAccountToken.acct-1`, `query 'support'`.
  public var place: String

  /// `PLACE: customer.override: APPROVE is a Google Play value; an App Store request takes ...`.
  public var description: String {
    (place.isEmpty ? "" : place + ": ")
      + "\(fact): \(value) is \(store.withArticle) value; \(requestStore.withArticle) request "
      + "takes " + expectedList
  }

  /// The expected values as a list in a sentence: `GRANT_FULL, ... or DO_NOT_RESPOND`.
  var expectedList: String { Self.sentenceList(expected) }

  /// Words as a list in a sentence: `A`, `A or B`, `A, B or C`.
  static func sentenceList(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.joined() }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }
}
