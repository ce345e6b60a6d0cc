import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// A time is read one way wherever it is written: a tests file value, a facts value (`--facts`,
/// JSON fact sources, SQLite text columns) and the date options (`--now`, `--since`, `--until`)
/// accept the same strings as the same instant, and refuse the same strings.
struct TimestampReadingTests {
  /// The three readings of `text`: the instant, or nil when refused.
  static func readings(_ text: String) -> (tests: Double?, facts: Double?, option: Double?) {
    let tests = try? TestValues.parse(
      TestValue(text: text, isQuoted: true, span: SourceSpan(start: 0, end: 0)),
      as: .timestamp, now: nil)
    let facts = try? FactDocument(
      object: ["usage.last_used": .string(text)], schema: .standard, path: "facts.json")
    let option = try? DryRunSetup.date(text)
    return (
      tests.flatMap(Self.seconds),
      facts.flatMap { $0.values["usage.last_used"] }.flatMap(Self.seconds),
      option?.timeIntervalSince1970
    )
  }

  static func seconds(_ value: Value) -> Double? {
    if case .timestamp(let seconds) = value { seconds } else { nil }
  }

  @Test(arguments: [
    ("2026-01-10", 1_768_003_200),
    ("2026-01-10T09:30:00Z", 1_768_037_400),
    ("2026-01-10T09:30Z", 1_768_037_400),
    ("2026-01-10 09:30:00Z", 1_768_037_400),
    ("2026-01-10T09:30:00.250Z", 1_768_037_400.25),
    ("2026-01-10T11:30:00+02:00", 1_768_037_400),
    ("2026-01-10T05:00:00-0430", 1_768_037_400),
    ("2024-02-29", 1_709_164_800),
    (" 2026-01-10T09:30:00Z ", 1_768_037_400),
  ])
  func aTimeIsAcceptedAsTheSameInstantEverywhere(_ text: String, _ seconds: Double) {
    let read = Self.readings(text)
    #expect(read.tests == seconds)
    #expect(read.facts == seconds)
    #expect(read.option == seconds)
  }

  @Test(arguments: [
    "2026-01-10T09:30", "2026-01-10T09:30:00", "2026-01-10 09:30:00.000", "2026-02-30",
    "2025-02-29", "2026-13-01", "2026-01-10T24:00:00Z", "2026-01-10T09:30:00+25:00", "2026/01/10",
    "20260110", "2026-01-10Z", "2026-01-10T09:30.5Z", "2026-01-10T09:30:00.Z",
    "2026-01-10T09:30:00.1234567890Z", "٢٠٢٦-01-10", "", "yesterday",
  ])
  func aTimeIsRefusedEverywhereAlike(_ text: String) {
    let read = Self.readings(text)
    #expect(read.tests == nil)
    #expect(read.facts == nil)
    #expect(read.option == nil)
  }

  /// A time of day without a zone is refused with how to add one, in a facts value as in the
  /// date options.
  @Test func aTimeWithoutAZoneIsToldToAddOne() {
    #expect(throws: DryRunError.dateWithoutTimeZone("2026-01-10T09:30")) {
      try DryRunSetup.date("2026-01-10T09:30")
    }
    let error = #expect(throws: ValueParseError.self) {
      try ValueParser.parse("2026-01-10T09:30", as: .timestamp)
    }
    #expect(
      error?.hint == "add a time zone, as in 2026-01-10T09:30Z (UTC) or 2026-01-10T09:30+01:00")
  }
}
