import Foundation

/// RFC 3339 times as Google's JSON writes `Timestamp` fields: `2026-11-03T10:15:30Z`, with
/// optional fractional seconds and a `Z` or numeric offset.
public enum RFC3339Time {
  /// The time `text` names, or nil.
  public static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }

  /// `date` in UTC, to the second.
  public static func text(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
