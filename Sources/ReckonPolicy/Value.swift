import Foundation

/// A runtime value of the policy language.
///
/// Enum values carry their ordinal within their (statically known) `EnumType`, so comparing them
/// costs an integer comparison. Money is held in thousandths of the currency unit.
public enum Value: Hashable, Sendable {
  case boolean(Bool)
  case number(Double)
  /// A percentage, 37.5% is `.percent(37.5)`.
  case percent(Double)
  /// An amount in thousandths of `currency`: 4.99 USD is `.money(4990, "USD")`.
  case money(Int64, currency: String)
  /// A length of time in seconds.
  case duration(Double)
  /// A point in time, in seconds since 1970-01-01T00:00:00Z.
  case timestamp(Double)
  case text(String)
  /// The ordinal of a case of an `EnumType`.
  case enumeration(Int)
}

extension Value {
  /// Renders the value as a policy author would write it, naming enum cases through `type`.
  public func formatted(as type: ValueType) -> String {
    switch self {
    case .boolean(let flag): return flag ? "true" : "false"
    case .number(let number): return Value.formatNumber(number)
    case .percent(let percent): return Value.formatNumber(percent) + "%"
    case .money(let milli, let currency):
      return Value.formatMoney(milli) + " " + currency
    case .duration(let seconds): return Value.formatDuration(seconds)
    case .timestamp(let seconds): return Value.formatTimestamp(seconds)
    case .text(let text): return "\"" + text + "\""
    case .enumeration(let ordinal):
      if case .enumeration(let enumType) = type, enumType.cases.indices.contains(ordinal) {
        return enumType.cases[ordinal]
      }
      return "#\(ordinal)"
    }
  }

  /// A number in plain decimal, never with an exponent, in the fewest digits that read back as the
  /// same value: the policy lexer reads `0.00001`, not `1e-05`. Infinity and NaN, which no literal
  /// can spell, print as Swift does.
  static func formatNumber(_ number: Double) -> String {
    guard number.isFinite else { return String(number) }
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    // Swift's description is the shortest text that reads back exactly, but it switches to an
    // exponent below 1e-4 and above 2^53; move the decimal point instead.
    let shortest = String(number.magnitude).split(separator: "e")
    let exponent = shortest.count == 2 ? Int(shortest[1]) ?? 0 : 0
    let mantissa = shortest[0].split(separator: ".", omittingEmptySubsequences: false)
    let digits = mantissa.joined()
    let point = mantissa[0].count + exponent
    var whole: Substring
    var fraction: Substring
    if point <= 0 {
      (whole, fraction) = ("0", Substring(String(repeating: "0", count: -point) + digits))
    } else if point >= digits.count {
      (whole, fraction) = (
        Substring(digits + String(repeating: "0", count: point - digits.count)), ""
      )
    } else {
      (whole, fraction) = (digits.prefix(point), digits.dropFirst(point))
    }
    while whole.count > 1, whole.first == "0" { whole.removeFirst() }
    while fraction.last == "0" { fraction.removeLast() }
    return (number < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
  }

  /// An amount in milliunits with two decimals, three when the third is not 0 (`4.99`, `0.005`).
  public static func formatMoney(_ milli: Int64) -> String {
    let sign = milli < 0 ? "-" : ""
    let magnitude = milli.magnitude
    let whole = magnitude / 1000
    var fraction = String(magnitude % 1000)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") && fraction.count > 2 { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
  }

  /// A reader's gloss on a duration whose exact form is in a small unit though it spans days or
  /// hours (`21296800 seconds` is "about 246.5 days"); nil when the exact form already reads well.
  public static func approximateDuration(_ seconds: Double) -> String? {
    guard seconds.isFinite else { return nil }
    let exact = formatDuration(seconds)
    for (name, size) in [("days", 86_400.0), ("hours", 3_600.0)] where abs(seconds) >= 2 * size {
      guard !exact.hasSuffix(" " + name) else { return nil }
      return "about " + formatNumber((seconds / size * 10).rounded() / 10) + " " + name
    }
    return nil
  }

  /// The value as `formatted(as:)` writes it, with `approximateDuration`'s gloss after a
  /// duration that has one: `15898814 seconds (about 184 days)`, for messages people read.
  public func glossed(as type: ValueType) -> String {
    let exact = formatted(as: type)
    guard case .duration(let seconds) = self, let about = Value.approximateDuration(seconds)
    else { return exact }
    return exact + " (\(about))"
  }

  /// The percentage a fraction is (0.07 is 7), without the binary noise of multiplying
  /// (7.000000000000001), for hints that show it.
  static func percentage(ofFraction fraction: Double) -> Double {
    (fraction * 100 * 1e9).rounded() / 1e9
  }

  /// The fraction a percentage is (7 is 0.07), rounded as `percentage(ofFraction:)` is.
  static func fraction(ofPercentage percentage: Double) -> Double {
    (percentage / 100 * 1e12).rounded() / 1e12
  }

  static func formatDuration(_ seconds: Double) -> String {
    let units: [(String, Double)] = [("days", 86_400), ("hours", 3_600), ("minutes", 60)]
    for (name, size) in units where seconds != 0 && (seconds / size).rounded() == seconds / size {
      let count = seconds / size
      return formatNumber(count) + " " + (abs(count) == 1 ? String(name.dropLast()) : name)
    }
    return formatNumber(seconds) + (abs(seconds) == 1 ? " second" : " seconds")
  }

  static func formatTimestamp(_ seconds: Double) -> String {
    // Years outside 0001...9999 have no ISO 8601 form without extensions; show the number.
    guard seconds.isFinite, Value.timestampRange.contains(seconds) else {
      return formatNumber(seconds)
    }
    return UTCTime(secondsSince1970: Int64(seconds.rounded(.down))).iso8601
  }
}
