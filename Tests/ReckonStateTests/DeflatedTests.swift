import Foundation
import Testing

@testable import ReckonState

/// What a state stored deflated (format 1) reads back exactly, and only as it was written.
struct DeflatedTests {
  /// Text that repeats at a distance: `count` bytes whose second half copies the first.
  static func echoing(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    let half = (0..<(count / 2)).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
    return Data(half + half + [UInt8](repeating: 0x41, count: count % 2))
  }

  @Test(arguments: [0, 1, 250, 3_000, 40_000, 300_000])
  func aValueReadsBackExactly(count: Int) throws {
    let value = Self.echoing(count)
    let stored = Deflated.compress(value)
    #expect(try Deflated.decompress(stored, what: "a test") == value)
  }

  @Test(arguments: [100, 1_500, 20_000])
  func aValueDeflatedWithADictionaryReadsBackOnlyWithIt(count: Int) throws {
    let dictionary = Self.echoing(count)
    let value = dictionary + Data("and a little more".utf8)
    let stored = Deflated.compress(value, dictionary: dictionary)
    #expect(stored.count < 200, "\(stored.count) bytes: the dictionary was out of the window")
    #expect(try Deflated.decompress(stored, dictionary: dictionary, what: "a test") == value)
    #expect(throws: StateError.self) { try Deflated.decompress(stored, what: "a test") }
  }

  /// Bytes deflated by zlib itself, as rows in format 1 were, read back.
  @Test func aValueDeflatedWithTheFullWindowReadsBack() throws {
    let stored = try #require(
      Data(
        base64Encoded:
          "wAd4nKtWykvMTVWyUipKTSzOz1PSUSpLzCkFCYT6efqFuPq5uLrEB4QGOXs4Brsq1epUj6ofVT+qftCoBwAw7Sc4"
      ))
    let expected = String(
      repeating: #"{"name":"reason","value":"UNINTENDED_PURCHASE"},"#, count: 20)
    #expect(try Deflated.decompress(stored, what: "a test") == Data(expected.utf8))
  }

  @Test func aDamagedValueIsRefused() {
    var stored = Deflated.compress(Self.echoing(3_000))
    stored[stored.startIndex + 8] ^= 0xFF
    #expect(throws: StateError.self) { try Deflated.decompress(stored, what: "a test") }
  }
}
