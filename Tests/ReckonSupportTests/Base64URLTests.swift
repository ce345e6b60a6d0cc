import Foundation
import Testing

@testable import ReckonSupport

/// Base64url decoding by table must give Foundation's verdict and bytes for every input.
@Suite struct Base64URLTests {
  /// What the decoder gave before the table: translate to standard base64, pad, ask Foundation.
  static func foundation(_ text: String) -> Data? {
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
      case UInt8(ascii: "="): return nil
      default: bytes.append(byte)
      }
    }
    bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
    return Data(base64Encoded: Data(bytes))
  }

  @Test func roundTripsEveryLength() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<200 {
      let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
      let text = Base64URL.encode(data)
      #expect(Base64URL.decode(text) == data)
      #expect(Base64URL.decode(text) == Self.foundation(text))
    }
  }

  @Test func agreesWithFoundationOnOddInput() {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .é")
    var generator = SystemRandomNumberGenerator()
    var inputs = ["", "A", "AB", "ABC", "ABCD", "AB==", "QR", "QUI", "QUJ", "Q", "a+b/", "ab cd"]
    for _ in 0..<3_000 {
      let length = Int.random(in: 0...9, using: &generator)
      inputs.append(
        String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
    }
    for text in inputs {
      #expect(Base64URL.decode(text) == Self.foundation(text), "\(text)")
    }
  }
}
