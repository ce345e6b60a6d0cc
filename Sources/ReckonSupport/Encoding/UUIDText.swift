import Foundation

/// UUID text (8-4-4-4-12 hexadecimal digits) read and written straight from bytes, for the
/// millions a dry-run reads and the few every webhook request handles: Foundation's parser and
/// formatter go through `sscanf` and `snprintf`, and a test per byte of whether it is a digit
/// or a letter (a branch mispredicted on about a third of random hexadecimal) showed in
/// profiles.
public enum UUIDText {
  /// The UUID `text` spells, in either case, as `UUID(uuidString:)` reads it.
  public static func uuid(_ text: String) -> UUID? {
    var text = text
    return text.withUTF8 { bytes in
      bits(bytes, lowercaseOnly: false).map { high, low in
        // The first digit is the highest: big-endian words are the UUID's bytes in order.
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) {
          UUID(uuid: $0.load(as: uuid_t.self))
        }
      }
    }
  }

  /// A customer's account id as fact sources and the state match it: a UUID in lower case (its
  /// case means nothing, and Apple's `appAccountToken` is one), anything else as written
  /// (Google's `obfuscatedAccountId` is the app's own text, whose case is part of it).
  public static func accountKey(_ text: String) -> String {
    var text = text
    let uuid = text.withUTF8 { bytes -> Bool? in
      guard bits(bytes, lowercaseOnly: true) == nil else { return nil }
      return bits(bytes, lowercaseOnly: false) != nil
    }
    // nil: already a lower-case UUID.
    return uuid == true ? text.lowercased() : text
  }

  /// `uuid` as text, upper-case as `UUID.uuidString` writes it, or lower-case.
  public static func text(_ uuid: UUID, uppercase: Bool = true) -> String {
    let digits = uppercase ? upperDigits : lowerDigits
    return withUnsafeBytes(of: uuid.uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { output in
        var at = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            output[at] = UInt8(ascii: "-")
            at += 1
          }
          output[at] = digits[Int(byte >> 4)]
          output[at + 1] = digits[Int(byte & 0x0F)]
          at += 2
        }
        return at
      }
    }
  }

  /// The 128 bits of `text` as two words, first digit highest; nil unless `text` is a UUID,
  /// with lowercase digits only when `lowercaseOnly`.
  public static func bits(_ text: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> (
    UInt64, UInt64
  )? {
    guard text.count == 36, let base = text.baseAddress,
      base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
      base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
    else { return nil }
    let table = lowercaseOnly ? lowercaseValues : values
    // A byte that is no digit gives 0xFF, which sets the high bits of `invalid`.
    var invalid: UInt8 = 0
    var high: UInt64 = 0
    var low: UInt64 = 0
    for offset in 0..<36 where offset != 8 && offset != 13 && offset != 18 && offset != 23 {
      let nibble = table[Int(base[offset])]
      invalid |= nibble
      if offset < 19 {
        high = high << 4 | UInt64(nibble & 0x0F)
      } else {
        low = low << 4 | UInt64(nibble & 0x0F)
      }
    }
    return invalid & 0xF0 == 0 ? (high, low) : nil
  }

  nonisolated(unsafe) private static let upperDigits = table(Array("0123456789ABCDEF".utf8))
  nonisolated(unsafe) private static let lowerDigits = table(Array("0123456789abcdef".utf8))

  /// Per byte, its value as a hexadecimal digit of either case, else 0xFF. Kept for the
  /// process's life outside an array, which each call would retain and release.
  nonisolated(unsafe) private static let values = table(
    (0...255).map { byte in
      switch UInt8(byte) {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
      default: 0xFF
      }
    })

  /// The same for lowercase digits only.
  nonisolated(unsafe) private static let lowercaseValues = table(
    values.enumerated().map { byte, value in
      (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(UInt8(byte)) ? 0xFF : value
    })

  private static func table(_ values: [UInt8]) -> UnsafeBufferPointer<UInt8> {
    let table = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: values.count)
    _ = table.initialize(from: values)
    return UnsafeBufferPointer(table)
  }
}
