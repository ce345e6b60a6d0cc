/// Reads the plainest spellings of fact values (`DELIVERED`, `4.99 USD`, `37.5%`, `90 days`,
/// `2026-11-01T09:30:00Z`, `true`) straight from their UTF-8 bytes, without Foundation, for the
/// hot paths (a SQLite column, every value of a JSON facts file). Anything else returns nil and
/// goes to `ValueParser`, which accepts every spelling and explains mistakes; both agree
/// wherever this one answers, bounds included.
package enum PlainValueReader {
  /// The value of `text` as `type`, if it is written in its plainest form.
  package static func read(_ text: String, as type: ValueType) -> Value? {
    var text = text
    return text.withUTF8 { read($0, as: type) }
  }

  /// The value of the UTF-8 `bytes` as `type`, if they are its plainest form: no spaces around,
  /// ASCII digits, at most 15 of them in a number.
  package static func read(_ bytes: UnsafeBufferPointer<UInt8>, as type: ValueType) -> Value? {
    switch type {
    case .enumeration(let enumType): return ordinal(bytes, in: enumType).map(Value.enumeration)
    case .boolean: return boolean(bytes).map(Value.boolean)
    case .number: return decimal(bytes[...], signed: true).map(Value.number)
    case .percent:
      guard bytes.last == UInt8(ascii: "%"),
        let number = decimal(bytes[..<(bytes.count - 1)], signed: false), number <= 100
      else { return nil }
      return .percent(number)
    case .money: return money(bytes)
    case .duration: return duration(bytes)
    case .timestamp: return TimestampText.plainSeconds(bytes).map(Value.timestamp)
    case .text: return .text(String(decoding: bytes, as: UTF8.self))
    case .list: return nil
    }
  }

  /// The case spelt by `bytes`, compared byte for byte; nil if a case that is not ASCII comes
  /// before it, which `String`'s comparison might find equal to ASCII bytes (`K` and the
  /// Kelvin sign are the same text).
  private static func ordinal(_ bytes: UnsafeBufferPointer<UInt8>, in type: EnumType) -> Int? {
    guard isASCII(bytes[...]) else { return nil }
    for (ordinal, name) in type.cases.enumerated() {
      let same = name.utf8.withContiguousStorageIfAvailable {
        $0.count == bytes.count && $0.elementsEqual(bytes)
      }
      guard let same, isASCII(name.utf8) else { return nil }
      if same { return ordinal }
    }
    return nil
  }

  private static func boolean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    if bytes.elementsEqual("true".utf8) { return true }
    if bytes.elementsEqual("false".utf8) { return false }
    return nil
  }

  /// `[-]DIGITS[.DIGITS]` with at most 15 digits, as `Double(String)` reads it: the digits are
  /// an exact integer below 2^53 and the power of ten is exact, so their quotient is the
  /// correctly rounded value, as strtod's is (Clinger's fast path).
  static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, signed: Bool) -> Double? {
    var index = bytes.startIndex
    let negative = signed && index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var mantissa: Int64 = 0
    var digits = 0
    var decimals = 0
    var point = false
    while index < bytes.endIndex {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "."), !point, digits > 0 {
        point = true
        continue
      }
      guard let digit = digit(byte), digits < 15 else { return nil }
      mantissa = mantissa * 10 + digit
      digits += 1
      if point { decimals += 1 }
    }
    guard digits > 0, !point || decimals > 0 else { return nil }
    let magnitude = Double(mantissa) / powersOfTen[decimals]
    return negative ? -magnitude : magnitude
  }

  private static let powersOfTen: [Double] = (0...15).map { power in
    (0..<power).reduce(1.0) { product, _ in product * 10 }
  }

  /// `DIGITS[.DIGITS] UNIT`, e.g. `90 days`: one space, a unit the language knows.
  private static func duration(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
    guard let space = bytes.firstIndex(of: UInt8(ascii: " ")),
      let count = decimal(bytes[..<space], signed: false)
    else { return nil }
    let unit = bytes[(space + 1)...]
    for (name, seconds) in Parser.durationUnits where name.utf8.elementsEqual(unit) {
      return .duration(count * seconds)
    }
    return nil
  }

  /// `[-]DIGITS[.D[D[D]]] CCC`, e.g. `59.94 USD`.
  private static func money(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
    guard bytes.count >= 5, bytes[bytes.count - 4] == UInt8(ascii: " ") else { return nil }
    let currency = bytes[(bytes.count - 3)...]
    guard currency.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
      return nil
    }
    var index = 0
    let negative = bytes[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    var whole: Int64 = 0
    var digits = 0
    while index < bytes.count - 4, let digit = digit(bytes[index]) {
      guard whole < Int64.max / 10_000 else { return nil }
      whole = whole * 10 + digit
      digits += 1
      index += 1
    }
    guard digits > 0 else { return nil }
    var fraction: Int64 = 0
    var scale: Int64 = 1_000
    if index < bytes.count - 4 {
      guard bytes[index] == UInt8(ascii: ".") else { return nil }
      index += 1
      while index < bytes.count - 4 {
        guard let digit = digit(bytes[index]), scale > 1 else { return nil }
        scale /= 10
        fraction += digit * scale
        index += 1
      }
    }
    let milli = whole * 1_000 + fraction
    return .money(negative ? -milli : milli, currency: String(decoding: currency, as: UTF8.self))
  }

  private static func isASCII(_ bytes: some Sequence<UInt8>) -> Bool {
    bytes.allSatisfy { $0 < 0x80 }
  }

  private static func digit(_ byte: UInt8) -> Int64? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
  }
}
