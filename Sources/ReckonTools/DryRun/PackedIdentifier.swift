import ReckonEngine
import ReckonSupport

/// An identifier from a notification, kept without a heap allocation when it has the shape
/// Apple gives it: a lowercase UUID (`notificationUUID`) or a decimal number (`transactionId`).
/// Anything else is kept as written. A dry-run holds two per row: as strings, a million rows
/// kept two million allocations alive, and touching that memory for the first time cost more
/// than reading the rows' facts.
enum PackedIdentifier: Hashable, Sendable {
  /// 8-4-4-4-12 lowercase hexadecimal digits, as their 128 bits.
  case uuid(UInt64, UInt64)
  /// Decimal digits without a leading zero (or `0` alone), at most 19 of them.
  case number(UInt64)
  /// Any other text, as written.
  case text(String)

  /// `text`, packed when it has one of the shapes above.
  init(_ text: String) {
    // Read in place (a native string's bytes are contiguous) rather than through a copy.
    let packed = text.utf8.withContiguousStorageIfAvailable { bytes in
      PackedIdentifier.number(bytes) ?? PackedIdentifier.uuid(bytes)
    }
    self = packed.flatMap { $0 } ?? .text(text)
  }

  /// The identifier as written.
  var text: String {
    switch self {
    case .number(let value): return String(value)
    case .text(let text): return text
    case .uuid(let high, let low):
      return String(unsafeUninitializedCapacity: 36) { buffer in
        var position = 0
        for nibble in 0..<32 {
          if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
            buffer[position] = UInt8(ascii: "-")
            position += 1
          }
          let word = nibble < 16 ? high : low
          let shift = UInt64(60 - 4 * (nibble % 16))
          buffer[position] = PackedIdentifier.hexDigits[Int(word >> shift & 0xF)]
          position += 1
        }
        return position
      }
    }
  }

  /// Whether the identifier is the empty string.
  var isEmpty: Bool {
    if case .text(let text) = self { return text.isEmpty }
    return false
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> PackedIdentifier? {
    guard (1...19).contains(bytes.count), bytes[0] != UInt8(ascii: "0") || bytes.count == 1
    else { return nil }
    var value: UInt64 = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
    }
    return .number(value)
  }

  private static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> PackedIdentifier? {
    UUIDText.bits(bytes, lowercaseOnly: true).map { .uuid($0.0, $0.1) }
  }
}
