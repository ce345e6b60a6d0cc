import Foundation
import ReckonSupport

/// JSON coders configured the way Apple's payloads need them.
public enum AppStoreJSON {
  /// A decoder reading dates as UNIX milliseconds; fractional values (Xcode payloads) are
  /// accepted, and a number that is no time (outside years 1 to 9999) is a decoding error.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let milliseconds = try container.decode(Double.self)
      guard let date = date(milliseconds: milliseconds) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: notATime(milliseconds))
      }
      return date
    }
    return decoder
  }

  /// The earliest and latest UNIX milliseconds read as a time.
  public static let millisecondRange = UnixMilliseconds.range

  /// The time `milliseconds` after 1970, or nil outside `millisecondRange` (or not finite).
  public static func date(milliseconds: Double) -> Date? { UnixMilliseconds.date(milliseconds) }

  /// Why a number is not a time, for decoding errors.
  static func notATime(_ milliseconds: Double) -> String {
    "\(milliseconds) is not a time: Apple's times are UNIX milliseconds, in years 1 to 9999"
  }

  /// A decoding error as one line: the key path and what is wrong with its value.
  public static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let (path, message): ([any CodingKey], String)
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      (path, message) = (context.codingPath, context.debugDescription)
    case .keyNotFound(let key, let context):
      (path, message) = (context.codingPath + [key], "is missing")
    @unknown default: return "\(error)"
    }
    let keys = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    return keys.isEmpty ? message : keys.joined(separator: ".") + ": " + message
  }

  /// An encoder writing dates as UNIX milliseconds and compact JSON with sorted keys, so equal values give equal bytes.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
