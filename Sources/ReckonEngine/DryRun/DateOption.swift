import Foundation

/// The dates `--since` and `--until` take: a whole UTC day (`2026-11-01`) or an exact ISO 8601
/// time with its zone (`2026-11-01T09:30:00Z`, `…T09:30:00.125+02:00`, seconds optional).
/// Anything else is refused rather than read in part: a time cut to midnight would quietly
/// select the wrong requests.
enum DateOption {
  static func parse(_ text: String) throws(DryRunError) -> Date {
    let pattern =
      /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})?)?/
    guard let match = text.wholeMatch(of: pattern) else { throw .badDate(text) }
    let output = match.output
    if output.4 != nil, output.8 == nil { throw .dateWithoutTimeZone(text) }
    var components = DateComponents()
    components.year = Int(output.1)
    components.month = Int(output.2)
    components.day = Int(output.3)
    components.hour = output.4.flatMap { Int($0) } ?? 0
    components.minute = output.5.flatMap { Int($0) } ?? 0
    components.second = output.6.flatMap { Int($0) } ?? 0
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    guard (1...12).contains(components.month!), (0...23).contains(components.hour!),
      (0...59).contains(components.minute!), (0...59).contains(components.second!),
      let date = calendar.date(from: components),
      calendar.component(.day, from: date) == components.day
    else { throw .badDate(text) }
    let fraction = output.7.flatMap { Double("0" + $0) } ?? 0
    return date.addingTimeInterval(fraction - (try offset(output.8, text)))
  }

  /// The zone's offset from UTC in seconds.
  private static func offset(_ zone: Substring?, _ text: String) throws(DryRunError)
    -> TimeInterval
  {
    guard let zone, zone != "Z", zone != "z" else { return 0 }
    let digits = zone.dropFirst().filter(\.isNumber)
    guard let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours <= 23,
      minutes <= 59
    else { throw .badDate(text) }
    let seconds = TimeInterval(hours * 3_600 + minutes * 60)
    return zone.first == "-" ? -seconds : seconds
  }
}
