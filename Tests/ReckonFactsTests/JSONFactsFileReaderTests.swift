import Foundation
import ReckonPolicy
import Testing

@testable import ReckonFacts

/// A facts file read straight from its bytes (`JSONFactsFileReader`) gives what the thorough
/// reading (a `JSONValue` tree, a `FactDocument` per entry) gives; a file with a problem is
/// handed to the thorough reading, so its error is the one it always was.
struct JSONFactsFileReaderTests {
  struct File: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    var testDescription: String { name }
  }

  static let schema = FactSchema(customFacts: [
    FactDescriptor(name: "custom.note", type: .text, isOptional: true, summary: "A note."),
    FactDescriptor(name: "custom.score", type: .number, isOptional: true, summary: "A score."),
    FactDescriptor(name: "custom.K", type: .boolean, isOptional: true, summary: "A flag."),
  ])

  static let readable = [
    File(
      name: "the plain spellings, minified",
      json:
        #"{"byTransactionId":{"1":{"customer.consented":true,"delivery.status":"DELIVERED","product.sample_offered":false,"usage.consumed":"37.5%","usage.consumed_units":12,"customer.account_age":"400 days","customer.lifetime_spent":"59.94 USD","customer.lifetime_refunded":"-3 EUR","usage.last_used":"2026-11-01T10:00:00Z","customer.override":"DECLINE"}}}"#
    ),
    File(
      name: "escapes in keys and values",
      json:
        #"{"by\u0054ransactionId": {"1\u0030": {"usage\u002econsumed": "4\u0030%", "delivery.status": "DELIVER\u0045D", "custom.note": "a \"quoted\" line\nand a tab\t\\ \/"}}}"#
    ),
    File(
      name: "unicode and surrogate pairs",
      json:
        #"{"byAppAccountToken": {"ÄBC-É": {"custom.note": "héllo 😀"}, "\u00c9\u00c4": {"custom.note": "\ud83d\ude00 \u00e9"}, "x": {"custom.note": "\ud83d alone"}}}"#
    ),
    File(
      name: "numbers with exponents and signs",
      json:
        #"{"byTransactionId": {"1": {"usage.consumed_units": 1e2, "custom.score": -0.5E-1, "customer.refunds_last_90_days": -0, "usage.last_used": 1.79e12}, "2": {"custom.score": 9223372036854775808, "usage.last_used": 1790000000000}}}"#
    ),
    File(
      name: "whitespace everywhere",
      json:
        " \r\n\t{ \"byTransactionId\"\t:\r\n{ \"1\" : { \"usage.consumed\" :\n\"40%\" ,\t\"customer.consented\" : false } } ,\n \"byAppAccountToken\" : { } }\r\n\t "
    ),
    File(
      name: "nulls, a notification fact's too",
      json:
        #"{"byTransactionId": {"1": {"customer.override": null, "reason": null, "usage.consumed": "1%"}}}"#
    ),
    File(
      name: "values the language reads another way",
      json:
        #"{"byTransactionId": {"1": {"usage.consumed": " 40%", "customer.account_age": "90  days", "usage.last_used": "2026-11-01 09:30:00+01:00", "customer.lifetime_spent": "4.99 USD ", "custom.score": "1e3"}, "2": {"usage.consumed": "1e1%", "customer.account_age": "-5 days", "usage.last_used": "2026-11-01", "delivery.status": " DELIVERED\t"}}}"#
    ),
    File(
      name: "both sections, upper-case tokens",
      json:
        #"{"byAppAccountToken": {"7E3FB20B-4CDB-47CC-936D-99D65F608138": {"usage.consumed": "90%", "customer.consented": true}}, "byTransactionId": {"1": {"usage.consumed": "40%"}}}"#
    ),
    File(name: "empty", json: "{}"),
    File(
      name: "empty sections and entries",
      json: #"{"byTransactionId": {"1": {}}, "byAppAccountToken": {}}"#),
  ]

  static let broken = [
    File(
      name: "a fact given twice",
      json: #"{"byTransactionId": {"1": {"usage.consumed": "1%", "usage.consumed": "2%"}}}"#),
    File(
      name: "a fact given twice, first as null",
      json: #"{"byTransactionId": {"1": {"usage.consumed": null, "usage.consumed": "2%"}}}"#),
    File(
      name: "a fact given twice, once escaped",
      json: #"{"byTransactionId": {"1": {"usage.consumed": "1%", "usage\u002econsumed": "2%"}}}"#),
    File(name: "a section given twice", json: #"{"byTransactionId": {}, "byTransactionId": {}}"#),
    File(name: "an entry given twice", json: #"{"byTransactionId": {"1": {}, "1": {}}}"#),
    File(
      name: "a UUID token given in two cases",
      json:
        #"{"byAppAccountToken": {"7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B": {}, "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b": {"usage.consumed": "1%"}}}"#
    ),
    File(name: "an unknown section", json: #"{"byTransactionIds": {}}"#),
    File(name: "an unknown fact", json: #"{"byTransactionId": {"1": {"usage.consumd": "4%"}}}"#),
    File(
      name: "a value out of range", json: #"{"byTransactionId": {"1": {"usage.consumed": "140%"}}}"#
    ),
    File(
      name: "a percent as a number", json: #"{"byTransactionId": {"1": {"usage.consumed": 40}}}"#),
    File(name: "a notification fact", json: #"{"byTransactionId": {"1": {"reason": "LEGAL"}}}"#),
    File(
      name: "an array as a value", json: #"{"byTransactionId": {"1": {"usage.consumed": ["1%"]}}}"#),
    File(
      name: "an object as a value",
      json: #"{"byTransactionId": {"1": {"usage.consumed": {"a": 1, "a": 2}}}}"#),
    File(name: "an entry that is not an object", json: #"{"byTransactionId": {"1": 5}}"#),
    File(name: "a section that is not an object", json: #"{"byTransactionId": [1]}"#),
    File(name: "an array at the top", json: "[1]"),
    File(name: "text after the object", json: #"{"byTransactionId": {}} x"#),
    File(name: "a trailing comma", json: #"{"byTransactionId": {"1": {},}}"#),
    File(
      name: "a syntax error after a bad fact",
      json:
        "{\"byTransactionId\": {\"1\": {\"usage.consumd\": \"1%\"},\n\"2\": {\"usage.consumed\": 40%}}}"
    ),
    File(
      name: "nesting too deep in a value",
      json: #"{"byTransactionId": {"1": {"custom.note": "#
        + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}}}"),
    File(name: "a lone key", json: #"{"byTransactionId"}"#),
    File(name: "nothing", json: ""),
  ]

  @Test(arguments: readable)
  func aReadableFileReadsAsTheThoroughReadingReadsIt(_ file: File) throws {
    let path = try write(file.json)
    let quick = try JSONFactsFile(files: [path], schema: Self.schema)
    let thorough = try JSONFactsFile(files: [path], schema: Self.schema, quickly: false)
    #expect(quick.entries == thorough.entries)
    // It was read quickly, not handed to the thorough reading.
    var reader = JSONFactsFileReader(schema: Self.schema)
    #expect(reader.read(Data(file.json.utf8), file: 0) == thorough.entries)
  }

  @Test(arguments: broken)
  func aBrokenFileIsRefusedWithTheThoroughReadingsError(_ file: File) throws {
    let path = try write(file.json)
    let quick = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: Self.schema)
    }
    let thorough = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: Self.schema, quickly: false)
    }
    #expect(quick == thorough)
    var reader = JSONFactsFileReader(schema: Self.schema)
    #expect(reader.read(Data(file.json.utf8), file: 0) == nil)
  }

  @Test func bytesThatAreNotUTF8AreRefusedAsTheyWereBefore() throws {
    var bytes = Array(#"{"byTransactionId": {"1": {"custom.note": "ab"}}}"#.utf8)
    bytes[bytes.count - 6] = 0xFF
    let path = try Fixtures.temporaryFolder().appendingPathComponent("facts.json").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let quick = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: Self.schema)
    }
    let thorough = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: [path], schema: Self.schema, quickly: false)
    }
    #expect(quick == thorough)
    #expect(quick?.description.contains("a string that is not UTF-8") == true)
  }

  /// `String` counts the Kelvin sign as `K`, so the thorough reading knows `custom.K` by either
  /// spelling; the byte-wise reader does not, gives up, and the file still reads.
  @Test func aFileTheQuickReaderGivesUpOnStillReads() throws {
    let json = #"{"byTransactionId": {"1": {"custom.\u212A": true}}}"#
    var reader = JSONFactsFileReader(schema: Self.schema)
    #expect(reader.read(Data(json.utf8), file: 0) == nil)
    let path = try write(json)
    let file = try JSONFactsFile(files: [path], schema: Self.schema)
    #expect(try file.facts(for: Fixtures.keys(transaction: "1"))["custom.K"] == .boolean(true))
  }

  /// Files of a folder are read one at a time, each quickly if it can be: a key a file shares
  /// with an earlier one is refused naming both, whichever way either was read.
  @Test(
    arguments: [
      (["a.json", "kelvin-2.json"], nil), (["a.json", "c.json"], ["a.json", "c.json"]),
      (["a.json", "kelvin-1.json"], ["a.json", "kelvin-1.json"]),
      (["kelvin-1.json", "c.json"], ["kelvin-1.json", "c.json"]),
    ] as [([String], [String]?)])
  func filesReadEitherWayShareTheirKeys(_ names: [String], _ clash: [String]?) throws {
    let folder = try Fixtures.temporaryFolder()
    let plain = #"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#
    for (name, json) in [
      ("a.json", plain), ("c.json", plain),
      ("kelvin-1.json", #"{"byTransactionId": {"1": {"custom.\u212A": true}}}"#),
      ("kelvin-2.json", #"{"byTransactionId": {"2": {"custom.\u212A": true}}}"#),
    ] {
      try Fixtures.write(json, to: folder.appendingPathComponent(name))
    }
    let files = names.map { folder.appendingPathComponent($0).path }
    guard let clash else {
      let quick = try JSONFactsFile(files: files, schema: Self.schema)
      let thorough = try JSONFactsFile(files: files, schema: Self.schema, quickly: false)
      #expect(quick.entries == thorough.entries && quick.entries.byTransactionId.count == 2)
      return
    }
    let quick = #expect(throws: JSONFileFactSourceError.self) {
      try JSONFactsFile(files: files, schema: Self.schema)
    }
    let paths = clash.map { folder.appendingPathComponent($0).path }
    #expect(quick == .duplicateKey(key: "byTransactionId.1", files: paths))
  }

  private func write(_ json: String) throws -> String {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(json, to: file)
    return file.path
  }
}
