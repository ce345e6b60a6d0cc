import Foundation

extension UnsafeBufferPointer<UInt8> {
  /// The offset of the first `byte` from `start` on, found with `memchr`: a JWS or a
  /// notification is kilobytes long, and a byte-at-a-time scan shows in a webhook request.
  package func firstOffset(of byte: UInt8, from start: Int = 0) -> Int? {
    guard start >= 0, start < count, let base = baseAddress,
      let found = memchr(base + start, Int32(byte), count - start)
    else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}
