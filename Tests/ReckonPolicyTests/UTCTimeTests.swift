import Foundation
import Testing

@testable import ReckonPolicy

/// Timestamps render as the ISO 8601 text a formatter writes, for any year.
struct UTCTimeTests {
  @Test func aTimeRendersAsAFormatterWritesIt() {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SystemRandomNumberGenerator()
    let samples: [Int64] =
      [0, 59, 86_399, 86_400, 951_782_400, 253_402_300_799]
      + (0..<2_000).map { _ in Int64.random(in: 0...253_402_300_799, using: &generator) }
    for seconds in samples {
      let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
      #expect(UTCTime(secondsSince1970: seconds).iso8601 == expected)
    }
  }

  @Test(arguments: [
    (Int64(-62_135_596_800), "0001-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
    (253_402_300_800, "10000-01-01T00:00:00Z"),
  ])
  func yearsAtTheEdgesKeepTheirDigits(seconds: Int64, expected: String) {
    #expect(UTCTime(secondsSince1970: seconds).iso8601 == expected)
  }
}
