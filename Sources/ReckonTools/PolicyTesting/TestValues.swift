import ReckonEngine
import ReckonPolicy

/// Reads values written in tests files: everything `ValueParser` reads, plus `N UNIT ago` for
/// timestamps (counted back from the test's `now`), and quoted times and text. A time is read as
/// everywhere else (`TimestampText`), so a whole UTC day (`"2026-01-10"`) is midnight UTC.
enum TestValues {
  /// Why a value in a tests file could not be read.
  struct Failure: Error, CustomStringConvertible {
    let description: String
    /// Whether the value counts back from `now` (`3 days ago`) and the test has no `now`.
    var needsNow = false
  }

  static func parse(_ written: TestValue, as type: ValueType, now: Value?) throws(Failure) -> Value
  {
    if type == .timestamp, !written.isQuoted, written.text.hasSuffix(" ago") {
      return try timeAgo(written.text, now: now)
    }
    if type == .timestamp, written.isQuoted {
      return try timestamp(written.text)
    }
    if type == .text, !written.isQuoted {
      throw Failure(description: "write text between double quotes, as in \"\(written.text)\"")
    }
    let value: Value
    do {
      value = try ValueParser.parse(written.text, as: type)
    } catch {
      throw Failure(description: error.description)
    }
    // Facts files take any code an adapter sends; a tests file is written as a policy is, and a
    // misspelt code would never equal the policy's amounts.
    if case .money(_, let currency) = value, !CurrencyCodes.isKnown(currency) {
      throw Failure(
        description:
          "unknown currency '\(currency)' in '\(written.text)': "
          + Parser.unknownCurrencyHint(currency))
    }
    return value
  }

  /// `N UNIT ago`, counted back from `now`; a time outside years 1 to 9999 is refused, as a
  /// written one is.
  private static func timeAgo(_ text: String, now: Value?) throws(Failure) -> Value {
    let example = "write, e.g., 3 days ago or \"2026-01-15T12:00:00Z\""
    let duration = String(text.dropLast(4))
    guard case .duration(let seconds)? = try? ValueParser.parse(duration, as: .duration) else {
      let unit = duration.split(separator: " ").last.map(String.init)
      let hint = unit.flatMap(Parser.unknownUnitHint) ?? example
      throw Failure(description: "'\(text)' is not a time: \(hint)")
    }
    guard case .timestamp(let reference)? = now else {
      throw Failure(
        description: "'\(text)' counts back from now, which this test has not got: \(example)",
        needsNow: true)
    }
    let time = reference - seconds
    guard Value.timestampRange.contains(time) else {
      throw Failure(description: "'\(text)' is not a time in years 1 to 9999: \(example)")
    }
    return .timestamp(time)
  }

  /// A quoted time, read as facts files and the date options read one (`TimestampText`), with
  /// the date options' words for a time without a zone.
  private static func timestamp(_ text: String) throws(Failure) -> Value {
    do { return .timestamp(try TimestampText.seconds(text)) } catch .noTimeZone {
      throw Failure(description: DryRunError.dateWithoutTimeZone(text).description)
    } catch {
      throw Failure(
        description:
          "'\(text)' is not a timestamp: write a time with its zone, as in \"2026-01-15T12:00:00Z\", "
          + "a whole UTC day, as in \"2026-01-15\", or a time before now, as in 3 days ago")
    }
  }
}
