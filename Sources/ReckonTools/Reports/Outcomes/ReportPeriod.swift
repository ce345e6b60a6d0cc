import Foundation

/// How a report over time groups requests: by calendar day, ISO week (Monday to Sunday, the
/// week-numbering year's `2026-W49`), or calendar month, in one time zone (UTC unless told).
public struct ReportPeriod: Sendable {
  /// The length of a period.
  public enum Unit: String, Sendable, CaseIterable {
    case day, week, month
  }

  /// The length of each period.
  public let unit: Unit
  /// The time zone periods start and end in.
  public let timeZone: TimeZone
  /// The time zone's name as given (`UTC` when none was).
  public let zoneName: String
  private let calendar: Calendar

  /// Periods of `unit` in `timeZone`.
  public init(_ unit: Unit, timeZone: TimeZone? = nil) {
    self.unit = unit
    // Foundation names UTC "GMT"; the report says what the reader asked for.
    self.timeZone = timeZone ?? TimeZone(secondsFromGMT: 0) ?? .current
    zoneName = timeZone?.identifier ?? "UTC"
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = self.timeZone
    calendar.firstWeekday = 2
    calendar.minimumDaysInFirstWeek = 4
    self.calendar = calendar
  }

  /// The most periods a report shows: ten thousand days is over 27 years.
  public static let mostPeriods = 10_000

  /// About how many periods there are from `start` to `end`, without counting them one by one.
  public func roughCount(from start: Date, to end: Date) -> Int {
    let length: TimeInterval =
      switch unit {
      case .day: 86_400
      case .week: 7 * 86_400
      case .month: 30.44 * 86_400
      }
    return Int((max(0, end.timeIntervalSince(start)) / length).rounded(.up))
  }

  /// The period `date` falls in (its start inclusive, end exclusive), by the time zone's clock,
  /// so a day across a daylight-saving change is 23 or 25 hours long.
  public func interval(containing date: Date) -> DateInterval {
    let component: Calendar.Component =
      switch unit {
      case .day: .day
      case .week: .weekOfYear
      case .month: .month
      }
    return calendar.dateInterval(of: component, for: date)
      ?? DateInterval(start: date, duration: 86_400)
  }

  /// Every period from the one holding `first` to the one holding `last`, in order.
  public func intervals(from first: Date, through last: Date) -> [DateInterval] {
    var periods: [DateInterval] = []
    var period = interval(containing: first)
    while period.start <= last {
      periods.append(period)
      period = interval(containing: period.end)
    }
    return periods
  }

  /// How a period starting at `start` is written: `2026-12-07`, `2026-W49`, `2026-12`.
  public func label(_ start: Date) -> String {
    let parts = calendar.dateComponents(
      [.year, .month, .day, .yearForWeekOfYear, .weekOfYear], from: start)
    func two(_ number: Int?) -> String { String(format: "%02d", number ?? 0) }
    switch unit {
    case .day: return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    case .week: return "\(parts.yearForWeekOfYear ?? 0)-W\(two(parts.weekOfYear))"
    case .month: return "\(parts.year ?? 0)-\(two(parts.month))"
    }
  }

  /// `date` as the time zone's clock shows it, with its offset: `2026-12-07T00:00:00Z`,
  /// `2026-12-07T00:00:00+01:00`.
  public func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    // The zone's offset at that moment, as a fixed zone: Foundation prints a zone named by an
    // abbreviation (EST, MST) with the daylight time of a city that uses it.
    formatter.timeZone = TimeZone(secondsFromGMT: timeZone.secondsFromGMT(for: date)) ?? timeZone
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
