import Foundation

/// The one reading of a written time, wherever Reckon takes one (facts files, fact sources,
/// tests files, `--now`, `--since`, `--until`): a whole UTC day (`2026-11-01`, midnight UTC) or
/// an exact ISO 8601 time with its zone (`2026-11-01T09:30:00Z`, `…T09:30:00.125+02:00`; seconds
/// optional, `T` or a space between the day and the time). Anything else is refused rather than
/// read in part: a time cut to midnight, or read in the machine's zone, would be quietly wrong.
/// Spaces around the text are ignored, as around every fact value. A time outside years 1 to 9999
/// (in UTC) is refused too: no fact can hold it.
public enum TimestampText {
  /// Why a text is not a time.
  public enum Refusal: Error, Hashable, Sendable {
    /// Not a day or a time in the forms above.
    case notATime
    /// A time of day without a zone, which could be read several ways.
    case noTimeZone
  }

  /// Seconds since 1970 for `text`, which must be a whole day or a time with its zone.
  public static func seconds(_ text: String) throws(Refusal) -> Double {
    try Array(ValueParser.trimmedOfSpaces(text).utf8).withUnsafeBufferPointer {
      bytes throws(Refusal) in
      var reader = Reader(bytes: bytes)
      let seconds = try reader.read()
      guard reader.atEnd, Value.timestampRange.contains(seconds) else { throw .notATime }
      return seconds
    }
  }

  /// The time `bytes` spell with no spaces around them, as `seconds` reads it; nil where
  /// `seconds` would refuse them or trim them first.
  static func plainSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var reader = Reader(bytes: bytes)
    guard let seconds = try? reader.read(), reader.atEnd, Value.timestampRange.contains(seconds)
    else { return nil }
    return seconds
  }

  /// Reads the text's bytes in order; every `number` is ASCII digits only.
  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func read() throws(Refusal) -> Double {
      let year = try number(4)
      try expect("-")
      let month = try number(2)
      try expect("-")
      let day = try number(2)
      var (hour, minute, second, fraction, offset) = (0, 0, 0, 0.0, 0)
      if eat("T") || eat(" ") {
        hour = try number(2)
        try expect(":")
        minute = try number(2)
        if eat(":") {
          second = try number(2)
          if eat(".") { fraction = try decimals() }
        }
        offset = try zone()
      }
      guard (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day),
        hour <= 23, minute <= 59, second <= 59
      else { throw .notATime }
      let days = Self.daysSince1970(year: year, month: month, day: day)
      return Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset) + fraction
    }

    /// The zone's offset from UTC in seconds: `Z`, `z`, `+HH:MM` or `+HHMM`.
    private mutating func zone() throws(Refusal) -> Int {
      if atEnd { throw .noTimeZone }
      if eat("Z") || eat("z") { return 0 }
      let sign: Int
      if eat("+") { sign = 1 } else if eat("-") { sign = -1 } else { throw .notATime }
      let hours = try number(2)
      _ = eat(":")
      let minutes = try number(2)
      guard hours <= 23, minutes <= 59 else { throw .notATime }
      return sign * (hours * 3_600 + minutes * 60)
    }

    /// One to nine digits after a decimal point, as a fraction of a second.
    private mutating func decimals() throws(Refusal) -> Double {
      var value = 0.0
      var scale = 1.0
      var count = 0
      while offset < bytes.count, let digit = Self.digit(bytes[offset]) {
        count += 1
        guard count <= 9 else { throw .notATime }
        scale /= 10
        value += Double(digit) * scale
        offset += 1
      }
      guard count > 0 else { throw .notATime }
      return value
    }

    private mutating func number(_ width: Int) throws(Refusal) -> Int {
      var value = 0
      for _ in 0..<width {
        guard offset < bytes.count, let digit = Self.digit(bytes[offset]) else {
          throw .notATime
        }
        value = value * 10 + digit
        offset += 1
      }
      return value
    }

    private mutating func eat(_ character: Unicode.Scalar) -> Bool {
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
      offset += 1
      return true
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(Refusal) {
      guard eat(character) else { throw .notATime }
    }

    private static func digit(_ byte: UInt8) -> Int? {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
      switch month {
      case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
      case 4, 6, 9, 11: 30
      default: 31
      }
    }

    /// Howard Hinnant's days-from-civil (proleptic Gregorian calendar), the inverse of `UTCTime`.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
      let shiftedYear = month <= 2 ? year - 1 : year
      let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
      let yearOfEra = shiftedYear - era * 400
      let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
      let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
      return era * 146_097 + dayOfEra - 719_468
    }
  }
}
