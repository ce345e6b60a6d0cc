import Foundation

/// A strict RFC 8259 JSON parser over bytes into `JSONValue`, with a nesting limit. Faster than
/// going through `JSONDecoder` on Linux, which matters on the webhook's path (every notification
/// parses a body, two JWS headers and two payloads), and total: any input gives a value or an error.
package struct JSONParser {
  /// How deeply arrays and objects may nest; deeper input is refused rather than risking the stack.
  package static let maximumDepth = 256

  let bytes: [UInt8]
  var offset = 0
  private var depth = 0

  package init(_ data: Data) {
    bytes = [UInt8](data)
  }

  /// Parses one JSON document; only whitespace may follow it.
  package mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    guard offset == bytes.count else {
      throw JSONParseError(offset: offset, reason: "unexpected text after the value")
    }
    return value
  }

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    guard offset < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      return try nested { parser throws(JSONParseError) in try parser.parseObject() }
    case UInt8(ascii: "["):
      return try nested { parser throws(JSONParseError) in try parser.parseArray() }
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw fail("unexpected character")
    }
  }

  private mutating func nested(_ body: (inout JSONParser) throws(JSONParseError) -> JSONValue)
    throws(JSONParseError)
    -> JSONValue
  {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw fail("nested more than \(Self.maximumDepth) levels deep")
    }
    defer { depth -= 1 }
    return try body(&self)
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    offset += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if consume(UInt8(ascii: "}")) { return .object(members) }
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw fail("expected a key")
      }
      let keyOffset = offset
      let key = try parseString()
      skipWhitespace()
      guard consume(UInt8(ascii: ":")) else { throw fail("expected ':'") }
      // A repeated key is refused: parsers disagree on which value wins, and a body or payload
      // that means different things to Reckon and to Apple must not be acted on.
      guard members.updateValue(try parseValue(), forKey: key) == nil else {
        throw JSONParseError(offset: keyOffset, reason: "the key \"\(key)\" appears twice")
      }
      skipWhitespace()
      if consume(UInt8(ascii: "}")) { return .object(members) }
      guard consume(UInt8(ascii: ",")) else { throw fail("expected ',' or '}'") }
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    offset += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if consume(UInt8(ascii: "]")) { return .array(items) }
    while true {
      items.append(try parseValue())
      skipWhitespace()
      if consume(UInt8(ascii: "]")) { return .array(items) }
      guard consume(UInt8(ascii: ",")) else { throw fail("expected ',' or ']'") }
    }
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    offset += 1
    let start = offset
    if let plain = scanPlainString() { return try text(bytes[plain]) }
    return try parseEscapedString(from: start)
  }

  /// The range of the string's bytes when it runs to its closing quote without an escape or a
  /// control character, with `offset` moved past the quote; otherwise nil, `offset` on the byte
  /// that stopped the scan. `offset` must be just past the opening quote.
  mutating func scanPlainString() -> Range<Int>? {
    // Most strings (a notification's JWS is thousands of bytes) have no escapes: find the closing
    // quote, eight bytes at a time, and decode the run at once instead of copying it byte by byte.
    let start = offset
    let stop = bytes.withUnsafeBufferPointer { buffer -> Int in
      guard let base = buffer.baseAddress else { return start }
      var index = start
      while index + 8 <= buffer.count,
        !Self.holdsQuoteEscapeOrControl(
          UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      {
        index += 8
      }
      while index < buffer.count {
        let byte = base[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        index += 1
      }
      return index
    }
    offset = stop
    guard stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") else { return nil }
    offset = stop + 1
    return start..<stop
  }

  /// Whether any of the eight bytes of `word` is a quote, a backslash or below 0x20: the
  /// zero-byte test `(v - 0x01…) & ~v & 0x80…`, exact as to whether there is one.
  static func holdsQuoteEscapeOrControl(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let zeroQuote = (quote &- ones) & ~quote
    let zeroBackslash = (backslash &- ones) & ~backslash
    let control = (word &- ones &* 0x20) & ~word
    return (zeroQuote | zeroBackslash | control) & highs != 0
  }

  /// The rest of a string whose plain run from `start` stopped at `offset`, escapes decoded.
  mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
    var scalars = Array(bytes[start..<offset])
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): return try text(scalars[...])
      case UInt8(ascii: "\\"): try parseEscape(into: &scalars)
      case 0..<0x20: throw fail("control character in a string")
      default: scalars.append(byte)
      }
    }
    throw fail("unterminated string")
  }

  /// The bytes of a string as text; bytes that are not UTF-8 are refused, not repaired.
  func text(_ utf8: ArraySlice<UInt8>) throws(JSONParseError) -> String {
    if Self.isASCII(utf8) { return String(decoding: utf8, as: UTF8.self) }
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw fail("a string that is not UTF-8")
    }
    return text
  }

  /// Whether every byte is ASCII.
  static func isASCII(_ utf8: ArraySlice<UInt8>) -> Bool {
    // Nearly every string is ASCII (a JWS is kilobytes of base64url): checked eight bytes at a
    // time, then decoded at once; only the others go through the slower validating decoder.
    utf8.withUnsafeBufferPointer { bytes -> Bool in
      guard let base = bytes.baseAddress else { return true }
      var high: UInt64 = 0
      var index = 0
      while index + 8 <= bytes.count {
        high |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        index += 8
      }
      while index < bytes.count {
        high |= UInt64(base[index])
        index += 1
      }
      return high & 0x8080_8080_8080_8080 == 0
    }
  }

  private mutating func parseEscape(into scalars: inout [UInt8]) throws(JSONParseError) {
    guard offset < bytes.count else { throw fail("unterminated escape") }
    let escape = bytes[offset]
    offset += 1
    let simple: UInt8? =
      switch escape {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case UInt8(ascii: "/"): UInt8(ascii: "/")
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      scalars.append(simple)
      return
    }
    guard escape == UInt8(ascii: "u") else { throw fail("unknown escape") }
    var code = try hex4()
    if (0xD800..<0xDC00).contains(code), offset + 1 < bytes.count,
      bytes[offset] == UInt8(ascii: "\\"),
      bytes[offset + 1] == UInt8(ascii: "u")
    {
      offset += 2
      let low = try hex4()
      guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid surrogate pair") }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    }
    // A lone surrogate has no scalar; it becomes U+FFFD as Foundation's decoder would not allow.
    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
  }

  private mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw fail("short \\u escape") }
    var value: UInt32 = 0
    for byte in bytes[offset..<offset + 4] {
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw fail("bad \\u escape")
      }
      value = value << 4 | digit
    }
    offset += 4
    return value
  }

  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    var isInteger = true
    _ = consume(UInt8(ascii: "-"))
    guard digits() > 0 else { throw fail("expected digits") }
    if consume(UInt8(ascii: ".")) {
      isInteger = false
      guard digits() > 0 else { throw fail("expected digits after '.'") }
    }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      isInteger = false
      if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
      guard digits() > 0 else { throw fail("expected exponent digits") }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if isInteger, let integer = Int(text) { return .integer(integer) }
    guard let number = Double(text) else { throw fail("number out of range") }
    return .number(number)
  }

  private mutating func digits() -> Int {
    let start = offset
    while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
      offset += 1
    }
    return offset - start
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError)
    -> JSONValue
  {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard offset + expected.count <= bytes.count,
      bytes[offset..<offset + expected.count].elementsEqual(expected)
    else {
      throw fail("unexpected word")
    }
    offset += expected.count
    return value
  }

  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0A, 0x0D: offset += 1
      default: return
      }
    }
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard offset < bytes.count, bytes[offset] == byte else { return false }
    offset += 1
    return true
  }

  func fail(_ reason: String) -> JSONParseError {
    JSONParseError(offset: offset, reason: reason)
  }
}

/// Why a document is not JSON: where and what.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The byte offset of the problem.
  public let offset: Int
  /// What is wrong there.
  public let reason: String

  /// `reason at byte N`.
  public var description: String { "\(reason) at byte \(offset)" }
}
