import Testing

@testable import ReckonSupport

/// `firstOffset(of:from:)` finds what a byte-by-byte `firstIndex` finds, from any start.
struct ByteSearchTests {
  @Test(arguments: [0, 1, 7, 64, 4_099])
  func findsTheFirstByteFromEveryStart(count: Int) {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...3, using: &generator) }
    bytes.withUnsafeBufferPointer { buffer in
      for start in [-1, 0, 1, count / 2, count - 1, count, count + 1] {
        for byte: UInt8 in [0, 3, 9] {
          let expected = start < 0 ? nil : bytes[min(start, count)...].firstIndex(of: byte)
          #expect(buffer.firstOffset(of: byte, from: start) == expected, "\(byte) from \(start)")
        }
      }
    }
  }

  @Test func anEmptyBufferHoldsNothing() {
    #expect(UnsafeBufferPointer<UInt8>(start: nil, count: 0).firstOffset(of: 0) == nil)
  }
}
