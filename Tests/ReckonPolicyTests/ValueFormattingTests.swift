import Foundation
import Testing

@testable import ReckonPolicy

struct ValueFormattingTests {
  struct FormatCase: CustomTestStringConvertible, Sendable {
    let value: Value
    let type: ValueType
    let text: String
    var testDescription: String { text }
  }

  static let cases: [FormatCase] = [
    FormatCase(value: .boolean(true), type: .boolean, text: "true"),
    FormatCase(value: .number(2.5), type: .number, text: "2.5"),
    FormatCase(value: .number(-3), type: .number, text: "-3"),
    FormatCase(value: .number(0.00001), type: .number, text: "0.00001"),
    FormatCase(value: .number(-0.000_000_125), type: .number, text: "-0.000000125"),
    FormatCase(value: .number(1e18), type: .number, text: "1000000000000000000"),
    FormatCase(value: .number(1.5e16), type: .number, text: "15000000000000000"),
    FormatCase(value: .percent(0.00001), type: .percent, text: "0.00001%"),
    FormatCase(value: .percent(12.5), type: .percent, text: "12.5%"),
    FormatCase(value: .money(4_990, currency: "USD"), type: .money, text: "4.99 USD"),
    FormatCase(value: .money(-1_005, currency: "EUR"), type: .money, text: "-1.005 EUR"),
    FormatCase(value: .money(7_000, currency: "USD"), type: .money, text: "7.00 USD"),
    FormatCase(value: .duration(90 * 86_400), type: .duration, text: "90 days"),
    FormatCase(value: .duration(3_600), type: .duration, text: "1 hour"),
    FormatCase(value: .duration(90), type: .duration, text: "90 seconds"),
    FormatCase(value: .timestamp(0), type: .timestamp, text: "1970-01-01T00:00:00Z"),
    FormatCase(value: .text("a"), type: .text, text: "\"a\""),
    FormatCase(value: .enumeration(0), type: .enumeration(TestSchema.delivery), text: "DELIVERED"),
    FormatCase(value: .enumeration(9), type: .enumeration(TestSchema.delivery), text: "#9"),
  ]

  @Test("values render as an author would write them", arguments: cases)
  func formatting(_ testCase: FormatCase) {
    #expect(testCase.value.formatted(as: testCase.type) == testCase.text)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300])
  func nonFiniteValuesRenderWithoutCrashing(_ number: Double) {
    for value in [Value.number(number), .percent(number), .duration(number), .timestamp(number)] {
      #expect(!value.formatted(as: .number).isEmpty)
    }
  }
}

/// Timestamps render as ISO 8601 in UTC, the same as Foundation's formatter says (for dates after
/// 1582: before it Foundation switches to the Julian calendar, ISO 8601 does not).
struct TimestampFormattingTests {
  @Test(
    arguments: [
      0.0, 1.0, 86_399, 86_400, 951_782_400, 1_793_522_400, -1, -86_401, 4_102_444_800,
      253_402_300_799,
      -2_208_988_800, 1_700_000_000.75,
    ] as [Double])
  func timestampsRenderAsFoundationWould(seconds: Double) {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let expected = formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    #expect(Value.timestamp(seconds).formatted(as: .timestamp) == expected)
  }

  /// A duration whose exact form is in a small unit though it spans days or hours gets a gloss;
  /// one that already reads in its largest unit does not.
  @Test(
    arguments: [
      (21_296_800.0, "about 246.5 days"), (172_860.0, "about 2 days"), (7_260.0, "about 2 hours"),
      (-259_201.0, "about -3 days"), (86_430.0, "about 24 hours"),
    ] as [(Double, String)])
  func aLongDurationInASmallUnitGetsItsSizeInWords(_ seconds: Double, _ gloss: String) {
    #expect(Value.approximateDuration(seconds) == gloss)
  }

  @Test(arguments: [34_560_000.0, 18_000.0, 90.0, 3_000.0, 0.0])
  func aDurationThatReadsWellHasNoGloss(_ seconds: Double) {
    #expect(Value.approximateDuration(seconds) == nil)
  }
}
