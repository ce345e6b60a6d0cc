import CZstd
import Foundation
import Testing

@testable import ReckonState

/// What a state stores compressed with zstd reads back exactly, and only as it was written.
struct ZstandardTests {
  @Test(arguments: [0, 1, 250, 3_000, 40_000, 300_000])
  func aValueReadsBackExactly(count: Int) throws {
    let value = DeflatedTests.echoing(count)
    let stored = Zstandard.compress(value)
    #expect(try Zstandard.decompress(stored, what: "a test") == value)
    if count >= 3_000 { #expect(stored.count < count * 6 / 10, "\(stored.count) of \(count)") }
  }

  @Test(arguments: [100, 1_500, 20_000])
  func aValueCompressedWithAPrefixReadsBackOnlyWithIt(count: Int) throws {
    let prefix = DeflatedTests.echoing(count)
    let value = prefix + Data("and a little more".utf8)
    let stored = Zstandard.compress(value, prefix: prefix)
    #expect(stored.count < 100, "\(stored.count) bytes: the prefix was not referred to")
    #expect(try Zstandard.decompress(stored, prefix: prefix, what: "a test") == value)
    #expect(throws: StateError.self) { try Zstandard.decompress(stored, what: "a test") }
    let other = DeflatedTests.echoing(count)
    #expect(throws: StateError.self) {
      try Zstandard.decompress(stored, prefix: other, what: "a test")
    }
  }

  @Test func aValueIsCompressedAtLevelOneWithItsChecksum() throws {
    let value = Data(
      (0..<2_000).map {
        #"{"productId":"com.example.pack\#($0 * 7_919 % 1_009)","quantity":\#($0 % 7)}"#
      }
      .joined().utf8)
    let stored = Zstandard.compress(value)
    var offset = stored.startIndex
    #expect(try VarInt.readLength(stored, at: &offset, what: "a test") == value.count)
    let context = try #require(ZSTD_createCCtx())
    defer { ZSTD_freeCCtx(context) }
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 1)
    var expected = [UInt8](repeating: 0, count: ZSTD_compressBound(value.count))
    let count = value.withUnsafeBytes { source in
      ZSTD_compress2(context, &expected, expected.count, source.baseAddress, source.count)
    }
    #expect(ZSTD_isError(count) == 0)
    let sameFrame = stored[offset...].elementsEqual(expected.prefix(count))
    #expect(sameFrame, "the stored frame is not zstd's level 1 frame with a checksum")
  }

  @Test func aDamagedValueIsRefused() {
    let stored = Zstandard.compress(DeflatedTests.echoing(3_000))
    for at in [2, stored.count / 2, stored.count - 1] {
      var damaged = stored
      damaged[damaged.startIndex + at] ^= 0x10
      #expect(throws: StateError.self) { try Zstandard.decompress(damaged, what: "a test") }
    }
  }

  @Test func aValueWhoseRecordedLengthIsWrongIsRefused() {
    var stored = Zstandard.compress(Data(repeating: 7, count: 100))
    stored[stored.startIndex] = 99
    let error = #expect(throws: StateError.self) {
      try Zstandard.decompress(stored, what: "request 3")
    }
    #expect(error?.description.hasPrefix("request 3 in the state database cannot be read") == true)
    #expect(throws: StateError.self) { try Zstandard.decompress(Data([0xFF]), what: "a test") }
  }
}
