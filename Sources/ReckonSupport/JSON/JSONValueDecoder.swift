import Foundation

/// Decodes `Decodable` values from an already parsed `JSONValue`, as a `JSONDecoder` set up for
/// store payloads decodes them from bytes: dates as UNIX milliseconds, integers only from whole
/// numbers, unknown keys ignored, a wrong type an error. Callers that have parsed a document
/// already (verification reads a payload's `signedDate` and environment first) decode it without
/// reading the bytes again.
public struct JSONValueDecoder {
  /// A decoder.
  public init() {}

  /// Decodes a `T` from `value`.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try JSONValueDecoding(value: value, codingPath: []).unwrap(type)
  }
}

/// One position in the value being decoded.
private struct JSONValueDecoding: Decoder {
  let value: JSONValue
  // The path is joined only when asked for (an error, or a nested container): a member that is a
  // string or a number never pays for a new array.
  private let parentPath: [any CodingKey]
  private let key: (any CodingKey)?
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(value: JSONValue, codingPath: [any CodingKey]) {
    self.value = value
    self.parentPath = codingPath
    self.key = nil
  }

  init(value: JSONValue, parentPath: [any CodingKey], key: any CodingKey) {
    self.value = value
    self.parentPath = parentPath
    self.key = key
  }

  var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
    return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
    return Unkeyed(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoding: self) }

  func mismatch(_ expected: Any.Type) -> DecodingError {
    DecodingError.typeMismatch(
      expected,
      .init(codingPath: codingPath, debugDescription: "Expected \(expected), found \(value)."))
  }

  /// `T` from this value, with the primitives and dates handled here.
  func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
    if type == Date.self {
      let milliseconds = try double()
      guard let date = UnixMilliseconds.date(milliseconds) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: codingPath, debugDescription: UnixMilliseconds.notATime(milliseconds)))
      }
      return date as! T
    }
    if type == String.self { return try string() as! T }
    if type == Bool.self { return try bool() as! T }
    if type == Int.self { return try integer(Int.self) as! T }
    if type == Int64.self { return try integer(Int64.self) as! T }
    if type == Int32.self { return try integer(Int32.self) as! T }
    if type == Double.self { return try double() as! T }
    if type == JSONValue.self { return value as! T }
    if type == UUID.self { return try uuid() as! T }
    return try T(from: self)
  }

  func string() throws -> String {
    guard case .string(let text) = value else { throw mismatch(String.self) }
    return text
  }

  /// A UUID from its text, as Foundation's `UUID(from:)` reads one, without its `sscanf`.
  func uuid() throws -> UUID {
    guard let uuid = UUIDText.uuid(try string()) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: codingPath,
          debugDescription: "Attempted to decode UUID from invalid UUID string."))
    }
    return uuid
  }

  func bool() throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(Bool.self) }
    return flag
  }

  func double() throws -> Double {
    switch value {
    case .integer(let whole): return Double(whole)
    case .number(let number): return number
    default: throw mismatch(Double.self)
    }
  }

  func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    switch value {
    case .integer(let whole):
      guard let exact = I(exactly: whole) else { throw mismatch(type) }
      return exact
    case .number(let number):
      // JSONDecoder takes `10.0` or `1e3` for an integer, but never a fraction.
      guard let exact = I(exactly: number) else { throw mismatch(type) }
      return exact
    default: throw mismatch(type)
    }
  }

  private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
      if case .null = try member(key) { return true }
      return false
    }

    // One lookup instead of the default's three (contains, decodeNil, decode).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).unwrap(type)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).string()
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).bool()
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).integer(Int.self)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).integer(
        Int64.self)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      guard let found = members[key.stringValue], found != .null else { return nil }
      return try JSONValueDecoding(value: found, parentPath: codingPath, key: key).double()
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try JSONValueDecoding(value: try member(key), parentPath: codingPath, key: key).unwrap(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      try JSONValueDecoding(value: try member(key), parentPath: codingPath, key: key).container(
        keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try JSONValueDecoding(value: try member(key), parentPath: codingPath, key: key)
        .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
      JSONValueDecoding(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      JSONValueDecoding(
        value: members[key.stringValue] ?? .null, parentPath: codingPath, key: key)
    }

    private func member(_ key: Key) throws -> JSONValue {
      guard let found = members[key.stringValue] else {
        throw DecodingError.keyNotFound(
          key, .init(codingPath: codingPath, debugDescription: "No value for \(key.stringValue)."))
      }
      return found
    }
  }

  private struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
      self.elements = elements
      self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
      guard case .null = try element() else { return false }
      currentIndex += 1
      return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let decoded = try next().unwrap(type)
      currentIndex += 1
      return decoded
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      let container = try next().container(keyedBy: type)
      currentIndex += 1
      return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let container = try next().unkeyedContainer()
      currentIndex += 1
      return container
    }

    mutating func superDecoder() throws -> any Decoder {
      let decoder = try next()
      currentIndex += 1
      return decoder
    }

    private func next() throws -> JSONValueDecoding {
      JSONValueDecoding(value: try element(), parentPath: codingPath, key: Index(currentIndex))
    }

    private func element() throws -> JSONValue {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          JSONValue.self, .init(codingPath: codingPath, debugDescription: "The array ended."))
      }
      return elements[currentIndex]
    }
  }

  private struct Single: SingleValueDecodingContainer {
    let decoding: JSONValueDecoding
    var codingPath: [any CodingKey] { decoding.codingPath }

    func decodeNil() -> Bool {
      if case .null = decoding.value { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoding.unwrap(type) }
  }

  private struct Index: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
  }
}
