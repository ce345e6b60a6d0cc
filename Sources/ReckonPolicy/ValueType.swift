/// The static type of a policy value, as the checker sees it.
public indirect enum ValueType: Hashable, Sendable, CustomStringConvertible {
  case boolean
  case number
  case percent
  case money
  case duration
  case timestamp
  case text
  case enumeration(EnumType)
  case list(ValueType)

  /// How a policy author would name the type in a message.
  public var description: String {
    switch self {
    case .boolean: "boolean"
    case .number: "number"
    case .percent: "percent"
    case .money: "money"
    case .duration: "duration"
    case .timestamp: "timestamp"
    case .text: "text"
    case .enumeration(let type): type.noun
    case .list(let element): "list of \(element)"
    }
  }

  /// The type with the article a sentence needs: "a number", "an amount of money", "text".
  public var withArticle: String {
    switch self {
    case .money: "an amount of money"
    case .text: "text"
    default:
      // "an override", "a reason": the article of the word as it sounds, for the usual nouns.
      "aeiou".contains(description.first ?? "x") ? "an \(self)" : "a \(self)"
    }
  }

  /// Whether values of this type can be ordered with `<`, `<=`, `>`, `>=`.
  public var isOrdered: Bool {
    switch self {
    case .number, .percent, .money, .duration, .timestamp: true
    default: false
    }
  }
}

/// A closed set of symbolic values, such as a store's delivery statuses.
public struct EnumType: Hashable, Sendable {
  /// The type's name, e.g. `DeliveryStatus`.
  public let name: String
  /// The values, in declaration order.
  public let cases: [String]
  /// What messages call one of its values, e.g. `delivery status` (`a delivery status`).
  public let noun: String

  /// Creates an enum type from its name and values; `noun` defaults to the name's words in
  /// lower case (`DeliveryStatus` is `delivery status`).
  public init(name: String, cases: [String], noun: String? = nil) {
    self.name = name
    self.cases = cases
    self.noun = noun ?? EnumType.words(of: name)
  }

  /// `DeliveryStatus` as `delivery status`.
  static func words(of name: String) -> String {
    var words = ""
    for character in name {
      if character.isUppercase, !words.isEmpty { words.append(" ") }
      words.append(character.lowercased())
    }
    return words
  }

  /// The position of `name` among the cases, if it is one of them.
  public func ordinal(of name: String) -> Int? {
    cases.firstIndex(of: name)
  }
}
