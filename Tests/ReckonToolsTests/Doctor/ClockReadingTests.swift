import Foundation
import Testing

@testable import ReckonTools

/// The clock check reads a server's `Date` header: whole seconds, taken somewhere during the
/// round trip, so the skew is a guess within half a second plus half the round trip.
struct ClockReadingTests {
  @Test func anHTTPDateIsRead() throws {
    let date = try #require(ClockReading.date("Sun, 06 Nov 1994 08:49:37 GMT"))
    #expect(date.timeIntervalSince1970 == 784_111_777)
    #expect(ClockReading.header(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(ClockReading.date("yesterday") == nil)
    #expect(ClockReading(source: "s", dateHeader: nil, sent: date, received: date) == nil)
  }

  @Test func aServerBehindThisMachineMakesItAhead() throws {
    let served = try #require(ClockReading.date("Sun, 06 Nov 1994 08:49:37 GMT"))
    let sent = served.addingTimeInterval(120.2)
    let reading = try #require(
      ClockReading(
        source: "https://api.example", dateHeader: "Sun, 06 Nov 1994 08:49:37 GMT", sent: sent,
        received: sent.addingTimeInterval(0.4)))
    #expect(abs(reading.skew - 119.9) < 0.001)
    #expect(abs(reading.uncertainty - 0.7) < 0.001)
    #expect(
      reading.described == "is 120 s ahead of https://api.example's clock (its Date header, ±1 s)")
  }

  @Test func aSkewWithinTheReadingsUncertaintyAgrees() throws {
    let served = try #require(ClockReading.date("Sun, 06 Nov 1994 08:49:37 GMT"))
    let reading = try #require(
      ClockReading(
        source: "x", dateHeader: "Sun, 06 Nov 1994 08:49:37 GMT",
        sent: served.addingTimeInterval(0.3), received: served.addingTimeInterval(0.6)))
    #expect(reading.described == "agrees with x's clock to within a second (its Date header)")
  }
}
