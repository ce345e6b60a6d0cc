import Foundation
import ReckonTools

/// `--by day|week|month` and `--time-zone ZONE`: how a report groups requests over time.
enum ReportPeriodOptions {
  /// The periods asked for, or nil without `--by`; `--time-zone` without `--by` is a usage
  /// mistake, as it would change nothing.
  static func period(_ arguments: inout Arguments) throws(UsageError) -> ReportPeriod? {
    let by = arguments.option("by")
    let zoneName = arguments.option("time-zone")
    guard let by else {
      if zoneName != nil { throw UsageError("--time-zone needs --by day|week|month") }
      return nil
    }
    guard let unit = ReportPeriod.Unit(rawValue: by) else {
      throw UsageError("--by must be day, week or month")
    }
    guard let zoneName else { return ReportPeriod(unit) }
    guard let zone = TimeZone(identifier: zoneName) else {
      throw UsageError(
        "--time-zone \(zoneName) is no time zone; give an IANA name such as Europe/Berlin or UTC")
    }
    return ReportPeriod(unit, timeZone: zone)
  }
}
