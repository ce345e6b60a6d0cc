import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `Date` header's value, the IMF-fixdate of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37
/// GMT`), which an origin server with a clock sends on its answers; a client such as `reckon
/// doctor` compares its clock with it. Made from `gmtime_r`, without a formatter's cost on
/// every answer.
enum HTTPDate {
  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `date` as an IMF-fixdate, to the second.
  static func text(_ date: Date = Date()) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
