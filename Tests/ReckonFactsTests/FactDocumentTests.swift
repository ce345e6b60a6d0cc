import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonSupport
import Testing

/// A facts document reports every fact it cannot read, by file and fact, and says what a file
/// that is not a facts object is.
struct FactDocumentTests {
  static func file(_ text: String) throws -> String {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("facts.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func manyBadFactsAreListedUpToTenThenCounted() throws {
    let names = (1...12).map { "custom.unknown\($0)" }
    let object = Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.bool(true)) })
    let error = try #require(throws: FactDocumentError.self) {
      try FactDocument(object: object, schema: .standard, path: "facts.json")
    }
    let lines = error.description.split(separator: "\n")
    #expect(lines.count == 11, "\(error)")
    #expect(lines.first == "facts.json: custom.unknown1: unknown fact")
    #expect(lines.last == "facts.json: and 2 more facts that cannot be read")
  }

  /// A number where a fact wants a boolean or a unit says how to write it: not "as text" with
  /// an empty example.
  @Test(arguments: [
    (
      #"{"product.sample_offered": 1}"#, "product.sample_offered: is a boolean; write true or false"
    ),
    (#"{"usage.consumed": 40}"#, #"usage.consumed: is a percent; write it as text, e.g. "37.5%""#),
  ])
  func aNumberForAFactOfAnotherTypeSaysHowToWriteIt(_ json: String, _ said: String) throws {
    let path = try Self.file(json)
    let error = try #require(throws: FactDocumentError.self) {
      try FactDocument(path: path, schema: .standard)
    }
    #expect(error.description == "\(path): \(said)", "\(error)")
  }

  @Test func aSyntaxErrorIsPlacedAtItsLineAndColumn() throws {
    let path = try Self.file("{\n  \"usage.consumed\": 40%\n}\n")
    let error = try #require(throws: FactDocumentError.self) {
      try FactDocument(path: path, schema: .standard)
    }
    #expect(
      error.description == """
        \(path):2:23: is not valid JSON: expected ',' or '}'
            2 |   "usage.consumed": 40%
              |                       ^
        """)
  }

  @Test(arguments: [
    #"{"notificationType": "CONSUMPTION_REQUEST"}"#, #"{"signedPayload": "eyJ"}"#,
    #"{"data": {"bundleId": "com.example"}}"#,
  ])
  func aNotificationIsNamedAsARequest(_ json: String) throws {
    let path = try Self.file(json)
    let error = try #require(throws: FactDocumentError.self) {
      try FactDocument(path: path, schema: .standard)
    }
    #expect(error == .requestFile(path: path))
  }

  /// A timestamp given as a number is in milliseconds; seconds there (1793350000) read as a day
  /// in January 1970 and are refused saying so, as a SQLite column's are.
  @Test func aTimestampInSecondsIsRefusedAsSuch() throws {
    let error = try #require(throws: FactDocumentError.self) {
      try FactDocument(
        object: ["usage.last_used": .integer(1_793_350_000)], schema: .standard,
        path: "facts.json")
    }
    #expect(
      error.description.contains(
        "usage.last_used: is a timestamp in UNIX milliseconds; 1793350000 looks like seconds"),
      "\(error)")
    let document = try FactDocument(
      object: ["usage.last_used": .integer(1_793_350_000_000)], schema: .standard,
      path: "facts.json")
    #expect(document.values["usage.last_used"] == .timestamp(1_793_350_000))
  }
}
