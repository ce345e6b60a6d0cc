import Foundation
import ReckonEngine
import Testing

@testable import ReckonTools

/// `--since` and `--until` read a whole UTC day or an exact time with its zone, and refuse the
/// rest instead of reading part of it.
struct DateOptionTests {
  static let exact: [(String, TimeInterval)] = [
    ("2026-10-01", 1_790_812_800),
    ("2026-10-01T12:00:00Z", 1_790_856_000),
    ("2026-10-01T12:00:00.000Z", 1_790_856_000),
    ("2026-10-01T12:00:00.250Z", 1_790_856_000.25),
    ("2026-10-01T12:00Z", 1_790_856_000),
    ("2026-10-01 12:00:00Z", 1_790_856_000),
    ("2026-10-01T14:00:00.5+02:00", 1_790_856_000.5),
    ("2026-10-01T07:30:00-0430", 1_790_856_000),
  ]

  @Test(arguments: exact)
  func aDayOrATimeWithItsZoneIsReadExactly(text: String, seconds: TimeInterval) throws {
    #expect(try DryRunSetup.date(text) == Date(timeIntervalSince1970: seconds))
  }

  @Test(arguments: ["2026-10-01T12:00:00", "2026-10-01 12:00", "2026-10-01T12:00:00.000"])
  func aTimeWithoutAZoneIsRefusedSayingSo(text: String) {
    #expect(throws: DryRunError.dateWithoutTimeZone(text)) { try DryRunSetup.date(text) }
  }

  @Test(arguments: [
    "2026-10-01xyz", "2026/10/01", "20261001", "2026-02-30", "2026-13-01", "2026-10-01T24:00:00Z",
    "2026-10-01T12:00:00+25:00", "", "yesterday",
  ])
  func anythingElseIsRefusedRatherThanReadInPart(text: String) {
    #expect(throws: DryRunError.badDate(text)) { try DryRunSetup.date(text) }
  }
}
