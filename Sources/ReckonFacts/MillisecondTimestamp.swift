import ReckonPolicy

/// A timestamp fact given as a number: UNIX milliseconds, as Apple writes them. A number that
/// would be a time before March 1973 is almost surely seconds (`unixepoch()`), which read as
/// milliseconds become a day in January 1970, so it is refused with how to fix it.
enum MillisecondTimestamp {
  /// The smallest UNIX milliseconds read as a time (3 March 1973); 0 is read as 1970 itself.
  static let earliest: Double = 100_000_000_000

  /// The time `milliseconds` after 1970, or why it looks like seconds instead.
  static func value(_ milliseconds: Double) -> Result<Value, Mistake> {
    guard milliseconds == 0 || abs(milliseconds) >= earliest || !milliseconds.isFinite else {
      return .failure(Mistake(milliseconds: milliseconds))
    }
    return .success(.timestamp(milliseconds / 1000))
  }

  /// Seconds given where milliseconds belong.
  struct Mistake: Error {
    let milliseconds: Double

    /// What was given, what it would be read as, and what to write instead.
    var description: String {
      "is a timestamp in UNIX milliseconds; \(Int64(milliseconds)) looks like seconds (it would "
        + "be \(Value.timestamp(milliseconds / 1000).formatted(as: .timestamp))): give it times 1000"
    }
  }
}
