import Foundation
import ReckonEngine
import ReckonPolicy

/// The dates `--now`, `--since` and `--until` take, read as every other time is
/// (`TimestampText`): a whole UTC day (`2026-11-01`) or an exact ISO 8601 time with its zone.
/// Anything else is refused rather than read in part: a time cut to midnight would quietly
/// select the wrong requests.
enum DateOption {
  static func parse(_ text: String) throws(DryRunError) -> Date {
    do { return Date(timeIntervalSince1970: try TimestampText.seconds(text)) } catch .noTimeZone {
      throw .dateWithoutTimeZone(text)
    } catch {
      throw .badDate(text)
    }
  }
}
