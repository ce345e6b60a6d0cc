import Foundation
import Testing

@testable import ReckonSupport

/// Decoding base64url four characters at a time gives what decoding one character at a time
/// gives, bytes and verdict, for every length and for characters outside the alphabet; standard
/// base64 is taken exactly when it is the one encoding of its bytes.
struct Base64BytesDecodeTests {
  /// One character at a time, six bits into an accumulator: the plainest correct decoder.
  static func reference(_ text: [UInt8]) -> [UInt8]? {
    guard text.count % 4 != 1 else { return nil }
    let table = Base64Bytes.urlTable
    var output: [UInt8] = []
    var accumulator: UInt32 = 0
    var bits: UInt32 = 0
    for character in text {
      let value = table[Int(character)]
      guard value != 0xFF else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
        accumulator &= (1 << bits) - 1
      }
    }
    return accumulator == 0 ? output : nil
  }

  @Test(arguments: [
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    "AQgw-_", "AB+/=. \u{0}\u{FF}",
  ])
  func decodingByGroupsAgreesWithDecodingByCharacters(_ alphabet: String) {
    let characters = Array(alphabet.utf8)
    var random = SystemRandomNumberGenerator()
    for length in 0..<40 {
      for _ in 0..<50 {
        let text = (0..<length).map { _ in characters.randomElement(using: &random)! }
        #expect(Base64Bytes.decodeURL(text[...]) == Self.reference(text), "\(text)")
      }
    }
  }

  /// Foundation's decoder, and the bytes kept only when they encode back to the text.
  static func standardReference(_ text: [UInt8]) -> Data? {
    guard let decoded = Data(base64Encoded: Data(text)), !decoded.isEmpty else { return nil }
    var again: [UInt8] = []
    Base64Bytes.encode(decoded, into: &again, url: false)
    return again == text ? decoded : nil
  }

  @Test(arguments: [
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", "AQw+/=", "AB=-_ \n",
  ])
  func standardBase64IsTakenExactlyWhenItEncodesBackToItself(_ alphabet: String) {
    let characters = Array(alphabet.utf8)
    var random = SystemRandomNumberGenerator()
    for length in 0..<24 {
      for _ in 0..<200 {
        let text = (0..<length).map { _ in characters.randomElement(using: &random)! }
        #expect(Base64Bytes.decodeStandard(text[...]) == Self.standardReference(text), "\(text)")
      }
    }
    for length in 1..<40 {
      let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
      var text: [UInt8] = []
      Base64Bytes.encode(bytes, into: &text, url: false)
      #expect(Base64Bytes.decodeStandard(text[...]) == bytes)
    }
  }

  @Test func everyLengthOfBytesReadsBack() {
    var random = SystemRandomNumberGenerator()
    for length in 0..<100 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      var text: [UInt8] = []
      bytes.withUnsafeBytes { Base64Bytes.encode($0, into: &text, url: true) }
      #expect(Base64Bytes.decodeURL(text[...]) == bytes)
    }
  }
}
