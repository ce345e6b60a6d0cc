import Foundation

/// JSON coders configured the way Apple's payloads need them.
public enum AppStoreJSON {
  /// A decoder reading dates as UNIX milliseconds; fractional values (Xcode payloads) are accepted.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return decoder
  }

  /// An encoder writing dates as UNIX milliseconds and compact JSON with sorted keys, so equal values give equal bytes.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
