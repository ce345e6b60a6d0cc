import Foundation
import ReckonEngine

/// A small JSON reader over one line's bytes, for the shapes a dry-run reads millions of times.
/// It reads plain strings (no escapes), whole numbers and skips anything else; whatever it does
/// not handle makes it give up (`nil`), and the caller takes the general, slower path.
struct JSONLineScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Reads an object, calling `member` with each key; `member` must read or skip the value.
  /// Returns false when the bytes are not an object this scanner can read.
  mutating func object(_ member: (inout JSONLineScanner, JSONKey) -> Bool) -> Bool {
    guard consume(UInt8(ascii: "{")) else { return false }
    if consume(UInt8(ascii: "}")) { return true }
    repeat {
      guard let key = rawString() else { return false }
      guard consume(UInt8(ascii: ":")) else { return false }
      guard member(&self, JSONKey(bytes: key)) else { return false }
    } while consume(UInt8(ascii: ","))
    return consume(UInt8(ascii: "}"))
  }

  /// Whether the next value is an object (without consuming it).
  mutating func atObject() -> Bool {
    skipSpace()
    return position < bytes.count && bytes[position] == UInt8(ascii: "{")
  }

  /// Whether the next value is `null`; consumes it if so.
  mutating func null() -> Bool {
    skipSpace()
    return matches("null")
  }

  /// A string without escapes.
  mutating func string() -> String? {
    rawString().map { String(decoding: $0, as: UTF8.self) }
  }

  /// A string without escapes, as its bytes in the line.
  mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
    guard consume(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return nil }
    let start = position
    // One pass finds the closing quote and checks what comes before it: an escape or a control
    // character sends the line to the general decoder, and so does a string that is not UTF-8.
    // Eight bytes at a time while none of them is a quote, a backslash, a control character or
    // beyond ASCII (the high bit of a byte is set below when it may be one), then byte by byte.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    var index = start
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let control = (word &- ones &* 0x20) & ~word
      let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
      let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
      let zeroes = (quote &- ones) & ~quote | (backslash &- ones) & ~backslash
      if (control | zeroes | word) & highBits != 0 { break }
      index += 8
    }
    var ascii = true
    while index < bytes.count {
      let byte = base[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { return nil }
    let text = UnsafeBufferPointer(start: base + start, count: index - start)
    if !ascii, String(validating: text, as: UTF8.self) == nil { return nil }
    position = index + 1
    return text
  }

  /// A whole number (no fraction or exponent), as JSON writes Apple's integers and milliseconds.
  mutating func integer() -> Int64? {
    skipSpace()
    var negative = false
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
      negative = true
      position += 1
    }
    var value: Int64 = 0
    var digits = 0
    while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
      guard digits < 18 else { return nil }
      value = value * 10 + Int64(bytes[position] - 48)
      digits += 1
      position += 1
    }
    guard digits > 0 else { return nil }
    if position < bytes.count {
      let next = bytes[position]
      if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
        return nil
      }
    }
    return negative ? -value : value
  }

  /// `true` or `false`.
  mutating func bool() -> Bool? {
    skipSpace()
    if matches("true") { return true }
    if matches("false") { return false }
    return nil
  }

  /// Whether only white space is left.
  mutating func atEnd() -> Bool {
    skipSpace()
    return position == bytes.count
  }

  private mutating func matches(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
      return false
    }
    position += count
    return true
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    skipSpace()
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  private mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }
}

/// An object key as its bytes in the line, compared without making a String.
struct JSONKey {
  let bytes: UnsafeBufferPointer<UInt8>

  /// Whether the key is `name`.
  func `is`(_ name: StaticString) -> Bool {
    guard bytes.count == name.utf8CodeUnitCount else { return false }
    return bytes.count == 0
      || ShortBytes.equal(bytes.baseAddress!, name.utf8Start, count: bytes.count)
  }
}
