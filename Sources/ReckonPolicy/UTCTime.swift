/// A UTC calendar time from seconds since 1970, for rendering timestamps as ISO 8601 without a
/// date formatter (one is costly to make, and they are made on every decision recorded).
struct UTCTime {
  let year: Int64
  let month: Int64
  let day: Int64
  let hour: Int64
  let minute: Int64
  let second: Int64

  /// Converts with Howard Hinnant's days-from-civil inverse (proleptic Gregorian calendar).
  init(secondsSince1970 seconds: Int64) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    hour = secondOfDay / 3_600
    minute = secondOfDay % 3_600 / 60
    second = secondOfDay % 60
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`. Written digit by digit into the string's storage for years of
  /// four digits, which every recorded decision's timestamps have.
  var iso8601: String {
    guard (0...9_999).contains(year) else { return padded }
    return String(unsafeUninitializedCapacity: 20) { text in
      func put(_ number: Int64, _ width: Int, at end: Int) {
        var rest = number
        for index in stride(from: end - 1, through: end - width, by: -1) {
          text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      put(year, 4, at: 4)
      put(month, 2, at: 7)
      put(day, 2, at: 10)
      put(hour, 2, at: 13)
      put(minute, 2, at: 16)
      put(second, 2, at: 19)
      (text[4], text[7], text[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
      (text[13], text[16], text[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
      return 20
    }
  }

  /// `iso8601` for any year, padded to four digits at least.
  private var padded: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
  }

  private func pad(_ number: Int64, _ width: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
