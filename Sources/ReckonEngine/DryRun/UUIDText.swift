/// UUID text (8-4-4-4-12 hexadecimal digits) read straight from bytes, for the millions a
/// dry-run reads: Foundation's parser, and a loop that switched on each byte, showed in profiles.
enum UUIDText {
  /// The 128 bits of `text` as two words, first digit highest; nil unless `text` is a UUID,
  /// with lowercase digits only when `lowercaseOnly`.
  static func bits(_ text: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> (UInt64, UInt64)? {
    guard text.count == 36, let base = text.baseAddress,
      base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
      base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-")
    else { return nil }
    // Any byte outside the hexadecimal digits sets the high bits of `invalid`.
    var invalid: UInt8 = 0
    func digits(_ start: Int, _ count: Int, into word: inout UInt64) {
      for offset in start..<(start + count) {
        let nibble = UUIDText.nibble(base[offset], lowercaseOnly: lowercaseOnly)
        invalid |= nibble
        word = word << 4 | UInt64(nibble & 0x0F)
      }
    }
    var high: UInt64 = 0
    var low: UInt64 = 0
    digits(0, 8, into: &high)
    digits(9, 4, into: &high)
    digits(14, 4, into: &high)
    digits(19, 4, into: &low)
    digits(24, 12, into: &low)
    return invalid & 0xF0 == 0 ? (high, low) : nil
  }

  /// The digit's value, or 0xFF for a byte that is none.
  @inline(__always)
  private static func nibble(_ byte: UInt8, lowercaseOnly: Bool) -> UInt8 {
    let decimal = byte &- UInt8(ascii: "0")
    if decimal < 10 { return decimal }
    let letter = (lowercaseOnly ? byte : byte | 0x20) &- UInt8(ascii: "a")
    return letter < 6 ? letter + 10 : 0xFF
  }
}
