import Testing

@testable import ReckonPolicy

/// The edges the docs promise: a byte order mark is ignored (columns count from after it), and
/// times are years 1 to 9999, both ends included, wherever one is read or shown.
struct EdgeOfRangeTests {
  @Test func aByteOrderMarkDoesNotShiftTheFirstLinesColumns() {
    let text = "\u{FEFF}rule \"r\" when reason == LEGALL then refund DECLINE\n"
    let result = TestSchema.load(text, path: "bom.policy")
    let rendered = result.renderedDiagnostics()
    #expect(
      rendered.hasPrefix("bom.policy:1:25: error[P0308]: unknown value 'LEGALL'"), "\(rendered)")
    #expect(
      rendered.contains(
        "    1 | rule \"r\" when reason == LEGALL then refund DECLINE\n"
          + "      |                         ^~~~~~\n"), "\(rendered)")
  }

  @Test func theFirstCharacterAfterAByteOrderMarkIsColumnOne() {
    let source = SourceFile(path: "b.policy", text: "\u{FEFF}let a = 1\nlet b = 2\n")
    #expect(source.location(of: 3) == SourceLocation(line: 1, column: 1))
    #expect(source.location(of: 0) == SourceLocation(line: 1, column: 1))
    #expect(source.location(of: 7) == SourceLocation(line: 1, column: 5))
    #expect(source.lineText(1) == "let a = 1")
    #expect(source.location(of: 13) == SourceLocation(line: 2, column: 1))
  }

  @Test(arguments: [
    (-62_135_596_800.0, "0001-01-01T00:00:00Z"), (253_402_300_799.0, "9999-12-31T23:59:59Z"),
  ])
  func theFirstAndLastSecondOfTheRangeAreShownAsTimes(_ seconds: Double, _ shown: String) {
    #expect(Value.formatTimestamp(seconds) == shown)
  }

  @Test(arguments: [
    "0000-01-01", "0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00",
    "10000-01-01",
  ])
  func aTimeOutsideYearsOneTo9999IsNotATime(_ text: String) {
    #expect(throws: TimestampText.Refusal.notATime) { try TimestampText.seconds(text) }
  }

  @Test(arguments: ["0001-01-01", "9999-12-31T23:59:59Z", "0001-01-01T01:00:00+01:00"])
  func theEdgesOfTheRangeAreTimes(_ text: String) throws {
    let seconds = try TimestampText.seconds(text)
    #expect(Value.timestampRange.contains(seconds))
  }
}
