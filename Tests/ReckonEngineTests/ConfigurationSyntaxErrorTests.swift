import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

/// A `reckon.json` that is not valid JSON is reported at its line and column, with the line and a
/// caret, as policy errors are: a byte offset cannot be found in an editor.
struct ConfigurationSyntaxErrorTests {
  static func write(_ text: String) throws -> String {
    let path = TestScratch.folder.appendingPathComponent("reckon-\(UUID().uuidString).json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aSyntaxErrorNamesItsLineAndColumnAndShowsTheLine() throws {
    let path = try Self.write(
      """
      {
        "apps": [
          {"bundleId": "com.example", "environment": "Sandbox",}
        ]
      }
      """)
    let error = #expect(throws: ConfigurationError.self) {
      try ReckonConfiguration.load(path: path)
    }
    #expect(
      error?.description == """
        \(path):3:58: is not valid JSON: expected a key
            3 |     {"bundleId": "com.example", "environment": "Sandbox",}
              |                                                          ^
        """)
  }

  @Test func aLineTooLongToReadIsLeftOut() throws {
    let padding = String(repeating: " ", count: 300)
    let path = try Self.write(#"{"apps": []\#(padding) "state": {}}"#)
    let error = #expect(throws: ConfigurationError.self) {
      try ReckonConfiguration.load(path: path)
    }
    #expect(error?.description == "\(path):1:313: is not valid JSON: expected ',' or '}'")
  }
}
