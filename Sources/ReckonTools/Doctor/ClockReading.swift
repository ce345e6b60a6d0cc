import Foundation

/// How far this machine's clock is from a server's, read off the `Date` header of one of its
/// answers: the header has whole seconds, and the answer took a while, so the reading is good to
/// within half a second plus half the round trip.
struct ClockReading: Sendable, Equatable {
  /// Whose clock it was compared with (a URL).
  let source: String
  /// Seconds this machine's clock is ahead of the server's (behind when negative).
  let skew: TimeInterval
  /// How far the true skew may be from `skew`, in seconds.
  let uncertainty: TimeInterval

  /// The reading from an answer whose `Date` header says `dateHeader`, asked at `sent` and
  /// answered at `received` by this machine's clock; nil without a readable header.
  init?(source: String, dateHeader: String?, sent: Date, received: Date) {
    guard let dateHeader, let served = Self.date(dateHeader) else { return nil }
    let roundTrip = max(0, received.timeIntervalSince(sent))
    let asked = sent.addingTimeInterval(roundTrip / 2)
    // The server's clock read somewhere in the second its header names: its middle is the guess.
    self.source = source
    self.skew = asked.timeIntervalSince(served) - 0.5
    self.uncertainty = 0.5 + roundTrip / 2
  }

  /// An HTTP-date (RFC 9110 §5.6.7) in its preferred form, `Sun, 06 Nov 1994 08:49:37 GMT`.
  static func date(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
  }

  /// The same form, for a server that writes one.
  static func header(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// The skew in words: `agrees with X's clock to within a second`, `is 12 s ahead of X's clock`.
  var described: String {
    let seconds = Int(skew.rounded())
    guard abs(skew) > max(1, uncertainty) else {
      return "agrees with \(source)'s clock to within a second (its Date header)"
    }
    let way = seconds > 0 ? "ahead of" : "behind"
    return
      "is \(abs(seconds)) s \(way) \(source)'s clock (its Date header, ±\(Int(uncertainty.rounded(.up))) s)"
  }
}
