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
    case .enumeration(let type): type.name
    case .list(let element): "list of \(element)"
    }
  }

  /// The type with the article a sentence needs: "a number", "an amount of money", "text".
  public var withArticle: String {
    switch self {
    case .money: "an amount of money"
    case .text: "text"
    default: "a \(self)"
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
  /// The name shown in messages, e.g. `DeliveryStatus`.
  public let name: String
  /// The values, in declaration order.
  public let cases: [String]

  /// Creates an enum type from its name and values.
  public init(name: String, cases: [String]) {
    self.name = name
    self.cases = cases
  }

  /// The position of `name` among the cases, if it is one of them.
  public func ordinal(of name: String) -> Int? {
    cases.firstIndex(of: name)
  }
}
