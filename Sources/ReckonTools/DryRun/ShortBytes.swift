import ReckonEngine

/// Equality of short byte runs (JSON keys, repeated values) by whole words: a call to `memcmp`
/// for each of the thirty-odd keys and shared strings of a line showed in a dry-run's profile.
enum ShortBytes {
  /// Whether the `count` bytes at `left` and at `right` are the same.
  @inline(__always)
  static func equal(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
    guard count >= 8 else {
      for offset in 0..<count
      where left.load(fromByteOffset: offset, as: UInt8.self)
        != right.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
      return true
    }
    // Whole words, the last one overlapping the one before it when the count is uneven.
    var offset = 0
    while offset < count - 8 {
      guard word(left, offset) == word(right, offset) else { return false }
      offset += 8
    }
    return word(left, count - 8) == word(right, count - 8)
  }

  @inline(__always)
  private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
  }
}
