import Foundation

/// Times written as milliseconds after 1970, as JSON payloads and state rows carry them.
public enum UnixMilliseconds {
  /// The earliest and latest milliseconds read as a time: years 1 to 9999, which every later
  /// conversion (to whole milliseconds, to ISO 8601) can hold.
  public static let range: ClosedRange<Double> = -62_135_596_800_000...253_402_300_799_999

  /// The time `milliseconds` after 1970, or nil outside `range` (or not finite).
  public static func date(_ milliseconds: Double) -> Date? {
    guard range.contains(milliseconds) else { return nil }
    return Date(timeIntervalSince1970: milliseconds / 1_000)
  }

  /// Why a number is not a time, for decoding errors.
  public static func notATime(_ milliseconds: Double) -> String {
    "\(milliseconds) is not a time: times are UNIX milliseconds, in years 1 to 9999"
  }
}
