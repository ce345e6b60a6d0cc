import Foundation
import Testing

@testable import ReckonSupport

/// The JSON parser behind `JSONValue.parse`: strict RFC 8259, total, and bounded in depth.
struct JSONParserTests {
  struct Valid: CustomTestStringConvertible, Sendable {
    let text: String
    let value: JSONValue
    var testDescription: String { text }
  }

  @Test(arguments: [
    Valid(
      text: #"{"a":1,"b":[true,false,null],"c":"x"}"#,
      value: .object([
        "a": .integer(1), "b": .array([.bool(true), .bool(false), .null]), "c": .string("x"),
      ])),
    Valid(
      text: " [ -0.5e2 , 12 , 1E3 ] ", value: .array([.number(-50), .integer(12), .number(1000)])),
    Valid(text: #""\"\\\/\b\f\n\r\t""#, value: .string("\"\\/\u{8}\u{C}\n\r\t")),
    Valid(text: #""\u00e9\ud83d\ude00""#, value: .string("é😀")),
    Valid(text: "9223372036854775808", value: .number(9_223_372_036_854_775_808)),
    Valid(text: "\"é\"", value: .string("é")),
  ])
  func validDocumentsParseToTheirValue(_ example: Valid) throws {
    #expect(try JSONValue.parse(Data(example.text.utf8)) == example.value)
  }

  @Test(arguments: [
    "", "{", "[1,]", "{\"a\"}", "{\"a\":}", "01x", "-", "1.", "1e", "tru", "nul", "\"abc",
    "\"\u{1}\"",
    "\"\\x\"", "\"\\u12\"", "[1] 2", "{'a':1}", "NaN", "Infinity",
    // A repeated key means different things to different parsers.
    #"{"k":1,"k":2}"#, #"{"a":{"k":1},"k":2,"b":3,"k":4}"#,
  ])
  func invalidDocumentsAreRefusedWithAReason(text: String) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(text.utf8)) }
  }

  @Test(
    arguments: [
      [0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22],
      [0x7B, 0x22, 0x6B, 0x22, 0x3A, 0x22, 0x80, 0x22, 0x7D],
    ] as [[UInt8]])
  func stringsThatAreNotUTF8AreRefusedNotRepaired(bytes: [UInt8]) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bytes)) }
  }

  @Test func longStringsReadTheSameWithAndWithoutEscapes() throws {
    // Strings without escapes are decoded in one run; one escape anywhere falls back to the
    // byte-by-byte path from that point. Both must give the same text and refuse the same input.
    let plain = String(repeating: "eyJhbGciOiJFUzI1NiJ9.", count: 300) + "é🙂"
    for (json, expected) in [
      ("\"\(plain)\"", plain), ("\"\(plain)\\n\(plain)\"", plain + "\n" + plain),
      ("\"\\u00e9\(plain)\"", "é" + plain), ("\"\"", ""),
    ] {
      #expect(try JSONValue.parse(Data(json.utf8)) == .string(expected))
    }
    for bad in ["\"\(plain)", "\"\(plain)\u{01}\"", "\"\(plain)\\", "\"\(plain)\\q\""] {
      #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bad.utf8)) }
    }
  }

  @Test func theEightByteTestFindsExactlyTheWordsWithAQuoteEscapeOrControl() {
    func bytewise(_ word: UInt64) -> Bool {
      (0..<8).contains { shift in
        let byte = UInt8(truncatingIfNeeded: word >> (shift * 8))
        return byte == 0x22 || byte == 0x5C || byte < 0x20
      }
    }
    var words: [UInt64] = (0..<20_000).map { _ in UInt64.random(in: .min ... .max) }
    let plain = UInt64(0x6162_6364_C3A9_7A7A)
    for position in 0..<8 {
      for byte: UInt64 in [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xFF] {
        let cleared = plain & ~(UInt64(0xFF) << (position * 8))
        words.append(cleared | byte << (position * 8))
      }
    }
    for word in words {
      #expect(JSONParser.holdsQuoteEscapeOrControl(word) == bytewise(word), "\(word)")
    }
  }

  @Test func aQuoteEscapeOrControlIsFoundAtEveryOffset() throws {
    for length in 0..<20 {
      for run in 0..<20 {
        let head = String(repeating: "a", count: length)
        let tail = String(repeating: "é", count: run)
        #expect(try JSONValue.parse(Data("\"\(head)\"".utf8)) == .string(head))
        #expect(
          try JSONValue.parse(Data("\"\(head)\\\"\(tail)\"".utf8)) == .string(head + "\"" + tail))
        #expect(throws: JSONParseError.self) {
          try JSONValue.parse(Data("\"\(head)\u{1F}\(tail)\"".utf8))
        }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data("\"\(head)\(tail)".utf8)) }
      }
    }
  }

  @Test func nestingBeyondTheLimitIsRefusedNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect((try? JSONValue.parse(Data(fine.utf8))) != nil)
  }
}
