import ReckonPolicy

/// Reads the plainest spellings of fact values (`DELIVERED`, `4.99 USD`, `37.5%`, `true`) without
/// Foundation, for adapters on the hot path. Anything else returns nil and goes to `ValueParser`,
/// which accepts every spelling and explains mistakes; both agree wherever this one answers.
enum PlainValueReader {
  /// The value of `text` as `type`, if it is written in its plainest form.
  static func read(_ text: String, as type: ValueType) -> Value? {
    switch type {
    case .enumeration(let enumType): return enumType.ordinal(of: text).map(Value.enumeration)
    case .boolean: return text == "true" ? .boolean(true) : text == "false" ? .boolean(false) : nil
    case .money: return money(text)
    case .percent:
      guard text.hasSuffix("%"), let number = Double(text.dropLast()), (0...100).contains(number)
      else { return nil }
      return .percent(number)
    default: return nil
    }
  }

  /// `[-]DIGITS[.D[D[D]]] CCC`, e.g. `59.94 USD`.
  private static func money(_ text: String) -> Value? {
    let bytes = Array(text.utf8)
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

  private static func digit(_ byte: UInt8) -> Int64? {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
  }
}
