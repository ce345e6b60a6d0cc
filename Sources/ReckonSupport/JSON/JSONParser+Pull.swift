/// Reading a document piece by piece, for a reader that builds its own structure from it rather
/// than a `JSONValue` tree: the same strings, numbers and errors as `parseDocument`, but the
/// reader walks the objects itself (and so checks their keys for repeats itself).
extension JSONParser {
  /// A string as read in place.
  package enum StringToken {
    /// A string without escapes: where its bytes (valid UTF-8) are in the input.
    case plain(Range<Int>)
    /// A string with escapes: its text, decoded.
    case decoded(String)
  }

  /// Skips whitespace, then consumes `byte` if it comes next; whether it did.
  package mutating func eat(_ byte: UInt8) -> Bool {
    skipWhitespace()
    return consume(byte)
  }

  /// Skips whitespace; whether `byte` comes next, left unread.
  package mutating func at(_ byte: UInt8) -> Bool {
    skipWhitespace()
    return offset < bytes.count && bytes[offset] == byte
  }

  /// Skips whitespace; whether nothing else is left.
  package mutating func atEnd() -> Bool {
    skipWhitespace()
    return offset == bytes.count
  }

  /// Reads the string that comes next, after any whitespace.
  package mutating func readString() throws(JSONParseError) -> StringToken {
    guard at(UInt8(ascii: "\"")) else { throw fail("expected a string") }
    offset += 1
    let start = offset
    guard let plain = scanPlainString() else {
      return .decoded(try parseEscapedString(from: start))
    }
    if !Self.isASCII(bytes[plain]), String(validating: bytes[plain], as: UTF8.self) == nil {
      throw fail("a string that is not UTF-8")
    }
    return .plain(plain)
  }

  /// Reads the value that comes next, whatever it is, as `parseDocument` reads one (its nesting
  /// counted from here).
  package mutating func readValue() throws(JSONParseError) -> JSONValue {
    try parseValue()
  }

  /// The text of a string read in place.
  package func text(of token: StringToken) -> String {
    switch token {
    case .plain(let range): String(decoding: bytes[range], as: UTF8.self)
    case .decoded(let text): text
    }
  }

  /// The input's bytes, in which a `plain` string's range lies.
  package var input: [UInt8] { bytes }
}
