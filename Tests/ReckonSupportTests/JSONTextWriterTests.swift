import Foundation
import Testing

@testable import ReckonSupport

/// The hand-written JSON of decision records must be exactly what `JSONEncoder` wrote before, so
/// stored records read the same whichever version wrote them.
@Suite struct JSONTextWriterTests {
  static let awkward = [
    "", "plain", "quote \" and backslash \\", "slash / here", "tab\tnew\nline\rcr",
    "bell \u{07} nul \u{00} unit \u{1F} del \u{7F}", "é ü 中文 🙂", "\u{08}\u{0C}",
  ]

  @Test(arguments: [true, false]) func stringsMatchJSONEncoder(escapesSlashes: Bool) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    let expected = try encoder.encode(["list": Self.awkward])
    var object = JSONTextWriter(escapesSlashes: escapesSlashes)
    object.beginObject()
    object.field("list", Self.awkward)
    object.endObject()
    #expect(
      String(decoding: object.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    let decoded = try JSONDecoder().decode([String: [String]].self, from: object.data)
    #expect(decoded["list"] == Self.awkward)
  }

  @Test func nestingNumbersAndOmittedFields() throws {
    var writer = JSONTextWriter()
    writer.beginObject()
    writer.key("a")
    writer.beginArray()
    writer.beginObject()
    writer.field("n", -12)
    writer.field("skipped", nil as String?)
    writer.field("t", true)
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.null()
    writer.endArray()
    writer.field("m", ["z": "1", "b": "2"])
    writer.endObject()
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"a":[{"n":-12,"t":true},[],null],"m":{"b":"2","z":"1"}}"#)
  }

}
