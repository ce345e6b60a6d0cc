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
