/// UUID text (8-4-4-4-12 hexadecimal digits) read straight from bytes, for the millions a
/// dry-run reads: Foundation's parser, and a test per byte of whether it is a digit or a
/// letter (a branch mispredicted on about a third of random hexadecimal), showed in profiles.
enum UUIDText {
  /// The 128 bits of `text` as two words, first digit highest; nil unless `text` is a UUID,
  /// with lowercase digits only when `lowercaseOnly`.
  static func bits(_ text: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> (UInt64, UInt64)? {
    guard text.count == 36, let base = text.baseAddress,
      base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
      base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
    else { return nil }
    return (lowercaseOnly ? lowercaseValues : values).withUnsafeBufferPointer { table in
      // A byte that is no digit gives 0xFF, which sets the high bits of `invalid`.
      var invalid: UInt8 = 0
      var high: UInt64 = 0
      var low: UInt64 = 0
      for offset in [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17] {
        let nibble = table[Int(base[offset])]
        invalid |= nibble
        high = high << 4 | UInt64(nibble & 0x0F)
      }
      for offset in [19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35] {
        let nibble = table[Int(base[offset])]
        invalid |= nibble
        low = low << 4 | UInt64(nibble & 0x0F)
      }
      return invalid & 0xF0 == 0 ? (high, low) : nil
    }
  }

  /// Per byte, its value as a hexadecimal digit of either case, else 0xFF.
  private static let values: [UInt8] = (0...255).map { byte in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
    default: 0xFF
    }
  }

  /// The same for lowercase digits only.
  private static let lowercaseValues: [UInt8] = values.enumerated().map { byte, value in
    (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(UInt8(byte)) ? 0xFF : value
  }
}
