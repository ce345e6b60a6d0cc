import ReckonPolicy

extension FactSchema {
  /// The type names a `customFacts` declaration may use.
  public static let customFactTypes: [String: ValueType] = [
    "boolean": .boolean, "number": .number, "percent": .percent, "money": .money,
    "duration": .duration,
    "timestamp": .timestamp, "text": .text,
  ]

  /// A `custom.NAME` fact declared by an adapter's configuration; custom facts are optional.
  public static func customFact(
    named name: String, type typeName: String, declaredBy source: String
  ) throws(CustomFactError)
    -> FactDescriptor
  {
    let rest = name.hasPrefix("custom.") ? name.dropFirst("custom.".count) : ""
    // ASCII, as the policy language's names are: custom.café would load here and fail in check.
    let isWord =
      rest.first.map { $0.isASCII && $0.isLetter } == true
      && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    guard isWord else { throw .badName(name) }
    guard let type = customFactTypes[typeName] else {
      throw .unknownType(name: name, type: typeName)
    }
    return FactDescriptor(
      name: name, type: type, isOptional: true, summary: "Declared by fact source \(source).")
  }
}

/// A `customFacts` declaration that cannot be used.
public enum CustomFactError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The name is not `custom.` followed by a word.
  case badName(String)
  /// The type is not one of `FactSchema.customFactTypes`.
  case unknownType(name: String, type: String)
  /// Two sources declare the same fact with different types.
  case conflictingTypes(name: String)

  /// A sentence naming the fact.
  public var description: String {
    switch self {
    case .badName(let name):
      "'\(name)' must be named custom.NAME, NAME a word of ASCII letters, digits and _"
    case .unknownType(let name, let type):
      "\(name): unknown type '\(type)'; use "
        + FactSchema.customFactTypes.keys.sorted().joined(separator: ", ")
    case .conflictingTypes(let name):
      "\(name) is declared by another fact source with a different type"
    }
  }
}
