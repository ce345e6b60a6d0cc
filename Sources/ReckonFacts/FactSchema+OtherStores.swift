import ReckonPolicy

extension FactSchema.Store {
  /// The store's name in a sentence: `App Store`, `Google Play`.
  public var name: String {
    switch self {
    case .appStore: "App Store"
    case .googlePlay: "Google Play"
    }
  }

  /// The name after its indefinite article: `an App Store`, `a Google Play`.
  public var withArticle: String {
    switch self {
    case .appStore: "an App Store"
    case .googlePlay: "a Google Play"
    }
  }
}

extension FactSchema {
  /// What a fact source read by one store's schema may hold for the other stores it serves too.
  /// One source serving both stores gives Google Play's reviews the product and purchase facts
  /// that Apple's notification gives, and may hold an override in either store's words. The
  /// first is passed over where the notification gives it, and the second is refused only when
  /// a request of the wrong store looks it up.
  public struct OtherStores: Sendable {
    /// The other stores, in `Store.allCases` order.
    public let stores: [Store]
    /// Facts this store does not take from a source and another store does: read and left out.
    public let passedOverFacts: Set<String>
    /// For each enumeration fact, the values only another store's words have, with that store.
    public let values: [String: [String: Store]]

    /// No other store: every fact and value a source gives must be this store's.
    public static let none = OtherStores(stores: [], passedOverFacts: [], values: [:])
  }

  /// This schema for reading fact sources that serve `stores` too (this schema's own store
  /// among them is ignored): what only those stores read is passed over or kept apart rather
  /// than refused. With no other store, it is this schema.
  public func readingSources(alongside stores: [Store]) -> FactSchema {
    let others = Store.allCases.filter { $0 != store && stores.contains($0) }
    var passedOver: Set<String> = []
    var values: [String: [String: Store]] = [:]
    for other in others {
      for entry in schema(for: other).entries where entry.origin == .adapter {
        let name = entry.descriptor.name
        guard origin(of: name) == .adapter else {
          passedOver.insert(name)
          continue
        }
        guard case .enumeration(let theirs) = entry.descriptor.type,
          case .enumeration(let ours)? = policySchema.fact(named: name)?.type
        else { continue }
        for value in theirs.cases where !ours.cases.contains(value) {
          values[name, default: [:]][value] = values[name]?[value] ?? other
        }
      }
    }
    var reading = self
    reading.otherStores = OtherStores(stores: others, passedOverFacts: passedOver, values: values)
    return reading
  }

  /// `value` for the fact `name` as another store's word (spaces around it aside, as values
  /// are read), when it is one and not this store's; `place` says where the source gave it.
  public func otherStoresValue(_ value: String, forFact name: String, at place: String = "")
    -> OtherStoresValue?
  {
    guard !otherStores.values.isEmpty else { return nil }
    let word = ValueParser.trimmedOfSpaces(value)
    guard let other = otherStores.values[name]?[word],
      case .enumeration(let ours)? = policySchema.fact(named: name)?.type
    else { return nil }
    return OtherStoresValue(
      fact: name, value: word, store: other, requestStore: store, expected: ours.cases,
      place: place)
  }

  /// What to add to the refusal of `value`, no word of any store's for the fact `name`: the
  /// closest of the other stores' own words, else those words; nil when no other store has
  /// words of its own for the fact, or one of this store's is the closer.
  public func otherStoresHint(_ value: String, forFact name: String) -> String? {
    guard let theirs = otherStores.values[name], !theirs.isEmpty,
      case .enumeration(let ours)? = policySchema.fact(named: name)?.type
    else { return nil }
    let word = ValueParser.trimmedOfSpaces(value)
    guard Suggestions.closest(to: word, among: ours.cases) == nil else { return nil }
    let words = theirs.keys.sorted()
    if let close = Suggestions.closest(to: word, among: words), let store = theirs[close] {
      return "did you mean '\(close)', \(store.withArticle) value?"
    }
    let parts = Store.allCases.compactMap { store -> String? in
      let own = words.filter { theirs[$0] == store }
      return own.isEmpty ? nil : "for \(store.name) requests, \(OtherStoresValue.sentenceList(own))"
    }
    return "or, " + parts.joined(separator: "; ")
  }
}
