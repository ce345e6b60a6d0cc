/// The facts of one request, in the slots the schema gives them; a slot left `nil` is missing.
public struct FactValues: Sendable, Hashable {
  /// The values by slot.
  public private(set) var values: ContiguousArray<Value?>
  /// The schema the slots belong to.
  public let schema: PolicySchema

  /// Creates an empty set of facts: every fact missing.
  public init(schema: PolicySchema) {
    self.schema = schema
    self.values = ContiguousArray(repeating: nil, count: schema.facts.count)
  }

  /// The value of the fact in `slot`, or nil if it is missing.
  public subscript(slot: Int) -> Value? {
    values.indices.contains(slot) ? values[slot] : nil
  }

  /// The value of the fact called `name`, or nil if it is missing or unknown.
  public subscript(name: String) -> Value? {
    schema.slot(ofFact: name).flatMap { values[$0] }
  }

  /// Sets a fact, checking that the value has the fact's type; `nil` makes it missing.
  public mutating func set(_ name: String, to value: Value?) throws(FactValueError) {
    guard let slot = schema.slot(ofFact: name) else { throw .unknownFact(name) }
    if let value {
      let type = schema.facts[slot].type
      guard value.fits(type) else { throw .wrongType(fact: name, expected: type, value: value) }
      if let problem = value.outOfBounds {
        throw .outOfBounds(fact: name, problem: problem)
      }
    }
    values[slot] = value
  }

  /// Sets the fact in `slot` without a name lookup, for bulk paths; the value must fit its type.
  public mutating func set(slot: Int, to value: Value?) {
    values[slot] = value
  }

  /// Makes every fact missing, keeping the storage: for bulk paths deciding request after request.
  public mutating func removeAll() {
    values.withUnsafeMutableBufferPointer { slots in
      for slot in slots.indices { slots[slot] = nil }
    }
  }

  /// Whether the fact in `slot` has a value: `self[slot] != nil` without copying the value.
  public func hasValue(slot: Int) -> Bool {
    guard values.indices.contains(slot), case .some = values[slot] else { return false }
    return true
  }

  /// Whether the fact called `name` has a value.
  public func has(_ name: String) -> Bool { self[name] != nil }

  public static func == (left: FactValues, right: FactValues) -> Bool {
    left.values == right.values
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// Why a fact value was refused.
public enum FactValueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The schema has no fact of that name.
  case unknownFact(String)
  /// The value is not of the fact's type.
  case wrongType(fact: String, expected: ValueType, value: Value)
  /// The value is of the fact's type but no fact can hold it (a percentage over 100, a number
  /// that is not finite, a money amount without a currency code).
  case outOfBounds(fact: String, problem: String)

  /// A sentence for the person who supplied the fact.
  public var description: String {
    switch self {
    case .unknownFact(let name): "unknown fact '\(name)'"
    case .wrongType(let fact, let expected, let value):
      "\(fact) must be \(expected.withArticle), not \(value.formatted(as: expected))"
    case .outOfBounds(let fact, let problem): "\(fact): \(problem)"
    }
  }
}

extension Value {
  /// The earliest and latest times a fact may hold, in seconds since 1970: years 1 to 9999,
  /// which every later conversion (to milliseconds, to ISO 8601) can hold.
  public static let timestampRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

  /// Why no fact can hold this value, whatever source gave it; nil when one can. The adapters
  /// read their text to the same bounds; an embedder's own source is held to them here.
  public var outOfBounds: String? {
    switch self {
    case .number(let number) where !number.isFinite: "\(number) is not a finite number"
    case .duration(let seconds) where !seconds.isFinite: "\(seconds) s is not a finite duration"
    case .percent(let percent) where !(0...100).contains(percent):
      "\(percent)% is not a percentage from 0% to 100%"
    case .timestamp(let seconds) where !Value.timestampRange.contains(seconds):
      "\(seconds) s after 1970 is not a time in years 1 to 9999"
    case .money(_, let currency) where !Parser.isCurrencyCode(currency):
      "'\(currency)' is not a currency code such as USD"
    default: nil
    }
  }

  /// Whether the value is of `type` (for an enum, a valid ordinal).
  public func fits(_ type: ValueType) -> Bool {
    switch (self, type) {
    case (.boolean, .boolean), (.number, .number), (.percent, .percent), (.money, .money),
      (.duration, .duration),
      (.timestamp, .timestamp), (.text, .text):
      return true
    case (.enumeration(let ordinal), .enumeration(let enumType)):
      return enumType.cases.indices.contains(ordinal)
    default:
      return false
    }
  }
}
