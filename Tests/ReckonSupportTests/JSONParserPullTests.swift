import Foundation
import Testing

@testable import ReckonSupport

/// Reading a document piece by piece (`JSONParser+Pull`) gives the strings the tree gives, and
/// refuses what the tree refuses.
struct JSONParserPullTests {
  struct StringCase: CustomTestStringConvertible, Sendable {
    let json: String
    /// Whether it is read in place, without escapes.
    let plain: Bool
    var testDescription: String { json }
  }

  @Test(arguments: [
    StringCase(json: #""usage.consumed""#, plain: true),
    StringCase(json: #""""#, plain: true),
    StringCase(json: "\"é😀\"", plain: true),
    StringCase(json: #""usage\u002econsumed""#, plain: false),
    StringCase(json: #""\"\\\/\b\f\n\r\t""#, plain: false),
    StringCase(json: #""\u00e9\ud83d\ude00""#, plain: false),
    StringCase(json: #""\ud83d""#, plain: false),
    StringCase(json: "\"caf\\u00e9 \(String(repeating: "x", count: 300))\"", plain: false),
  ])
  func aStringReadInPlaceHasTheTextTheTreeGives(_ example: StringCase) throws {
    let data = Data(example.json.utf8)
    var parser = JSONParser(data)
    let token = try parser.readString()
    let end = parser.atEnd()
    #expect(end)
    if case .plain = token { #expect(example.plain) } else { #expect(!example.plain) }
    #expect(try JSONValue.parse(data) == .string(parser.text(of: token)))
  }

  @Test(
    arguments: [
      [0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0x01, 0x22], [0x22, 0x61], [0x22, 0x5C, 0x71, 0x22],
    ] as [[UInt8]])
  func aStringTheTreeRefusesIsRefused(bytes: [UInt8]) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bytes)) }
    var parser = JSONParser(Data(bytes))
    #expect(throws: JSONParseError.self) { try parser.readString() }
  }

  @Test func aStringIsExpectedWhereOneIsRead() {
    var parser = JSONParser(Data("12".utf8))
    #expect(throws: JSONParseError.self) { try parser.readString() }
  }

  @Test(arguments: [" \t\r\n", "", "\n\n"])
  func whitespaceIsSkippedBeforeEveryPiece(_ space: String) throws {
    let json = "\(space){\(space)\"k\"\(space):\(space)12\(space)}\(space)"
    var parser = JSONParser(Data(json.utf8))
    let opened = parser.eat(UInt8(ascii: "{"))
    let atKey = parser.at(UInt8(ascii: "\""))
    let key = parser.text(of: try parser.readString())
    let colon = parser.eat(UInt8(ascii: ":"))
    let value = try parser.readValue()
    let comma = parser.eat(UInt8(ascii: ","))
    let closed = parser.eat(UInt8(ascii: "}"))
    let end = parser.atEnd()
    #expect(opened && atKey && key == "k" && colon && value == .integer(12))
    #expect(!comma && closed && end)
  }

  @Test(arguments: [
    ("1e2", JSONValue.number(100)), ("-0.5E-1", .number(-0.05)), ("-0", .integer(0)),
    ("12", .integer(12)), ("null", .null), ("true", .bool(true)),
  ])
  func aValueReadAloneIsTheTreesValue(_ json: String, _ value: JSONValue) throws {
    var parser = JSONParser(Data(json.utf8))
    let read = try parser.readValue()
    #expect(read == value)
    #expect(try JSONValue.parse(Data(json.utf8)) == value)
  }
}
