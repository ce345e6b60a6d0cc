import Foundation

/// Reads a value written as in the language (`"37.5%"`, `"400 days"`, `"20 USD"`, `"DELIVERED"`)
/// for a fact of a known type, as facts files and adapters supply them.
public enum ValueParser {
  /// Parses `text` as a value of `type`; one no fact can hold (`1e308 weeks`) is refused.
  public static func parse(_ text: String, as type: ValueType) throws(ValueParseError) -> Value {
    let value = try read(text, as: type)
    if let problem = value.outOfBounds { throw .init(text, type, hint: problem) }
    return value
  }

  /// `text` without the spaces and tabs around it (Foundation's `.whitespaces`: tab and every
  /// space separator), read by scalar: Foundation's trimming goes through NSString on Linux,
  /// and every value of a facts file is trimmed.
  public static func trimmedOfSpaces(_ text: String) -> String {
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last)
    else { return text }
    guard let start = scalars.firstIndex(where: { !isSpace($0) }),
      let end = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[start...end])
  }

  private static func read(_ text: String, as type: ValueType) throws(ValueParseError) -> Value {
    let trimmed = trimmedOfSpaces(text)
    switch type {
    case .boolean:
      guard trimmed == "true" || trimmed == "false" else {
        throw .init(text, type, hint: "write true or false")
      }
      return .boolean(trimmed == "true")
    case .number:
      guard let number = Double(trimmed), number.isFinite else {
        throw .init(text, type, hint: "write a number such as 3 or 2.5")
      }
      return .number(number)
    case .percent:
      guard trimmed.hasSuffix("%"), let number = Double(trimmed.dropLast()),
        (0...100).contains(number)
      else {
        // A bare number that would be a share is one whose percent sign was left off.
        if let bare = Double(trimmed), bare > 0, bare < 1 {
          // 0.5 is most likely a fraction, half: 50%, not 0.5%.
          let meant = Value.formatNumber(Value.percentage(ofFraction: bare))
          throw .init(
            text, type, hint: "did you mean \(meant)%? a fraction is written as a percentage")
        }
        if let bare = Double(trimmed), (0...100).contains(bare) {
          throw .init(text, type, hint: "did you mean \(trimmed)%?")
        }
        throw .init(text, type, hint: "write a percentage from 0% to 100%, such as 37.5%")
      }
      return .percent(number)
    case .money:
      return try parseMoney(trimmed, original: text)
    case .duration:
      return try parseDuration(trimmed, original: text)
    case .timestamp:
      do { return .timestamp(try TimestampText.seconds(text)) } catch .noTimeZone {
        throw .init(
          text, type, hint: "add a time zone, as in \(trimmed)Z (UTC) or \(trimmed)+01:00")
      } catch {
        throw .init(
          text, type,
          hint: "write a time with its zone, such as 2026-11-01T09:30:00Z, or a whole UTC day, "
            + "such as 2026-11-01")
      }
    case .text:
      return .text(text)
    case .enumeration(let enumType):
      guard let ordinal = enumType.ordinal(of: trimmed) else {
        let hint =
          Suggestions.closest(to: trimmed, among: enumType.cases).map { "did you mean '\($0)'?" }
          ?? "expected one of \(enumType.cases.joined(separator: ", "))"
        throw .init(text, type, hint: hint)
      }
      return .enumeration(ordinal)
    case .list:
      throw .init(text, type, hint: "facts cannot be lists")
    }
  }

  private static func parseMoney(_ text: String, original: String) throws(ValueParseError) -> Value
  {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2, Parser.isCurrencyCode(String(parts[1])) else {
      if parts.count == 2, let code = Parser.upperCaseCurrency(String(parts[1])) {
        throw .init(original, .money, hint: "currency codes are upper case: \(parts[0]) \(code)")
      }
      throw .init(original, .money, hint: "write an amount and a currency, such as 4.99 USD")
    }
    let amount = String(parts[0])
    let negative = amount.hasPrefix("-")
    let digits = negative ? amount.dropFirst() : Substring(amount)
    guard let milli = Parser.thousandths(of: String(digits)) else {
      let hint =
        digits.utf8.allSatisfy { Lexer.isDigit($0) || $0 == UInt8(ascii: ".") }
        ? "write an amount with at most three decimals, such as 4.99 USD"
        : "write the amount in digits, with at most one point and one leading minus, such as "
          + "4.99 USD or -4.99 USD"
      throw .init(original, .money, hint: hint)
    }
    return .money(negative ? -milli : milli, currency: String(parts[1]))
  }

  private static func parseDuration(_ text: String, original: String) throws(ValueParseError)
    -> Value
  {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2, let count = Double(parts[0]), count.isFinite,
      let unit = Parser.durationUnits[String(parts[1])]
    else {
      // The hint a policy gets for the same words: `3 months` is told a month has no fixed length.
      let unitHint = parts.count == 2 ? Parser.unknownUnitHint(String(parts[1])) : nil
      throw .init(
        original, .duration,
        hint: unitHint ?? "write a count and a unit, such as 90 days or 12 hours")
    }
    return .duration(count * unit)
  }
}

/// A fact value that could not be read, with how to write it instead.
public struct ValueParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text as given.
  public let text: String
  /// The type it should have had.
  public let expected: ValueType
  /// How to write it.
  public let hint: String

  init(_ text: String, _ expected: ValueType, hint: String) {
    self.text = text
    self.expected = expected
    self.hint = hint
  }

  /// A sentence for the person who wrote the value.
  public var description: String { "'\(text)' is not \(expected.withArticle): \(hint)" }
}
