import Foundation

/// JSON coding as Google's APIs and Reckon's records need it.
enum GooglePlayJSON {
  /// Compact JSON with sorted keys, so equal values give equal bytes.
  static func encode(_ value: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every value encoded here is made of strings, numbers, Booleans, arrays and objects.
    return (try? encoder.encode(value)) ?? Data("null".utf8)
  }
}
