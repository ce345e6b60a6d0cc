import Foundation
import ReckonEngine
import ReckonPolicy

/// The dates `--now`, `--since` and `--until` take, read as every other time is
/// (`TimestampText`): a whole UTC day (`2026-11-01`) or an exact ISO 8601 time with its zone.
/// Anything else is refused rather than read in part: a time cut to midnight would quietly
/// select the wrong requests. So is a time before 1970, older than anything a state holds,
/// which Foundation would print in the Julian calendar before 1582 (`0001-01-01` as the 3rd).
enum DateOption {
  static func parse(_ text: String) throws(DryRunError) -> Date {
    let seconds: Double
    do { seconds = try TimestampText.seconds(text) } catch .noTimeZone {
      throw .dateWithoutTimeZone(text)
    } catch {
      throw .badDate(text)
    }
    guard seconds >= 0 else { throw .dateBefore1970(text) }
    return Date(timeIntervalSince1970: seconds)
  }
}
