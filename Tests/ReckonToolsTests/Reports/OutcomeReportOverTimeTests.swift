import Foundation
import ReckonState
import Testing

@testable import ReckonTools

/// The outcomes report over time and with money: periods from the window's start to its end
/// with none left out, ISO weeks, a time zone's days, money kept per currency, and Google Play
/// reviews counted with their own meaning.
struct OutcomeReportOverTimeTests {
  /// 2026-11-30, a Monday, 00:00 UTC.
  static let monday = Date(timeIntervalSince1970: 1_795_996_800)

  static func decision(
    at date: Date, _ outcomes: [OutcomeType] = [], price: Int64? = 10_000,
    currency: String = "EUR", revocation: String? = nil, percentage: Int? = nil,
    environment: String = "Production", rule: String = "r"
  ) -> DecidedOutcome {
    DecidedOutcome(
      receivedAt: date, action: "respond", rule: rule, policyName: "p", body: nil,
      rawNotification: Data(), outboxState: "sent",
      sentBody: Data(#"{"refundPreference":"DECLINE"}"#.utf8), outcomes: outcomes,
      revocationType: revocation, revocationPercentage: percentage,
      summary: RequestSummary(
        price: price, currency: price == nil ? nil : currency, reason: "OTHER",
        productType: environment == "GooglePlay" ? "Google Play" : "consumable"),
      environment: environment, policyVersion: "3", policySHA256: "abc")
  }

  @Test func weeksWithNoRequestInTheWindowAreZeroRows() {
    let report = OutcomeReport(
      [Self.decision(at: Self.monday.addingTimeInterval(3_600), [.refundDeclined])],
      by: ReportPeriod(.week), since: Self.monday.addingTimeInterval(-7 * 86_400),
      until: Self.monday.addingTimeInterval(14 * 86_400))
    #expect(report.periods.map(\.label) == ["2026-W48", "2026-W49", "2026-W50"])
    #expect(report.periods.map(\.sections.all.decisions) == [0, 1, 0])
    #expect(report.periods.map(\.sections.all.refundRate) == [nil, 0, nil])
    #expect(report.csv().split(separator: "\n").filter { $0.contains(",all,all,") }.count == 3)
  }

  /// A window that starts or ends inside a week counts that week's part inside it: the row says
  /// so, its start or end is the window's, and the report covers the window, not whole weeks.
  @Test func aWeekTheWindowCutsIsShownAsAPart() {
    let wednesday = Self.monday.addingTimeInterval(2 * 86_400)
    let nextThursday = Self.monday.addingTimeInterval(10 * 86_400)
    let report = OutcomeReport(
      [
        Self.decision(at: Self.monday.addingTimeInterval(3 * 86_400), [.refundDeclined]),
        Self.decision(at: Self.monday.addingTimeInterval(9 * 86_400), [.refundDeclined]),
      ], by: ReportPeriod(.week), since: wednesday, until: nextThursday)
    #expect(report.periods.map(\.label) == ["2026-W49", "2026-W50"])
    #expect(report.periods.map(\.isPartial) == [true, true])
    #expect(report.periods.first?.interval.start == wednesday)
    #expect(report.periods.last?.interval.end == nextThursday)
    #expect(report.periods.map(\.sections.all.decisions) == [1, 1])
    let text = report.text()
    #expect(
      text.contains("from 2026-12-02T00:00:00Z to 2026-12-10T00:00:00Z (exclusive)"), "\(text)")
    #expect(text.contains("  2026-W49 (part)  "), "\(text)")
    #expect(report.html().contains("2026-W50 (part)"))
    #expect(
      report.csv().contains("2026-W49,2026-12-02T00:00:00Z,2026-12-07T00:00:00Z,true,all,all,1,"))
    #expect(
      report.json().contains(#"{"label":"2026-W49","partial":true,"start":"2026-12-02T00:00:00Z""#))
    let whole = OutcomeReport(
      [Self.decision(at: Self.monday)], by: ReportPeriod(.week), since: Self.monday,
      until: Self.monday.addingTimeInterval(7 * 86_400))
    #expect(whole.periods.map(\.isPartial) == [false])
    #expect(!whole.text().contains("(part)"))
  }

  /// A Sunday late at night is the end of the ISO week that began on Monday, and the first days
  /// of January can belong to the year before's last week.
  @Test func weeksAreISOWeeksFromMonday() {
    let period = ReportPeriod(.week)
    let sunday = Self.monday.addingTimeInterval(7 * 86_400 - 1)
    #expect(period.interval(containing: sunday).start == Self.monday)
    #expect(period.label(period.interval(containing: sunday).start) == "2026-W49")
    // 2027-01-01 is a Friday: still ISO week 53 of 2026.
    let newYear = Date(timeIntervalSince1970: 1_798_761_600)
    #expect(period.label(period.interval(containing: newYear).start) == "2026-W53")
  }

  @Test func daysFollowTheTimeZoneAsked() throws {
    let late = Self.monday.addingTimeInterval(23.5 * 3_600)
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let utc = OutcomeReport([Self.decision(at: late)], by: ReportPeriod(.day))
    let local = OutcomeReport(
      [Self.decision(at: late)], by: ReportPeriod(.day, timeZone: berlin))
    #expect(utc.periods.map(\.label) == ["2026-11-30"])
    #expect(local.periods.map(\.label) == ["2026-12-01"])
    #expect(local.json().contains(#""start":"2026-12-01T00:00:00+01:00""#))
  }

  /// A currency as a state holds it (an embedder's summary, a hand-edited file) cannot shift
  /// the CSV's columns.
  @Test func aCurrencyInACSVHeaderIsQuotedWhenItMustBe() {
    let report = OutcomeReport([
      Self.decision(at: Self.monday, [.refundDeclined], price: 990, currency: "E,UR")
    ])
    let header = report.csv().split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.hasSuffix(#","at_stake_E,UR","kept_E,UR""#), "\(header)")
  }

  /// Declined and reversed refunds keep the price, a prorated refund the share not given back,
  /// a full refund nothing; each currency on its own.
  @Test func moneyKeptIsCountedPerCurrency() throws {
    let report = OutcomeReport([
      Self.decision(at: Self.monday, [.refundDeclined]),
      Self.decision(
        at: Self.monday, [.refund], revocation: "REFUND_PRORATED", percentage: 25_000),
      Self.decision(at: Self.monday, [.refund], revocation: "REFUND_FULL"),
      Self.decision(at: Self.monday, [.refund, .refundReversed], revocation: "REFUND_FULL"),
      Self.decision(at: Self.monday, [], currency: "USD"),
      Self.decision(at: Self.monday, [.refundDeclined], price: 990, currency: "USD"),
    ])
    let euro = try #require(report.all.money["EUR"])
    #expect(euro.requests == 4)
    #expect(euro.atStake == 40_000)
    #expect(euro.kept == 10_000 + 7_500 + 0 + 10_000)
    #expect(report.all.money["USD"] == OutcomeMoney(requests: 2, atStake: 10_990, kept: 990))
    #expect(report.text().contains("money kept: EUR 27.50 of 40.00"))
    #expect(
      report.json().contains(
        #""EUR":{"requests":4,"atStakeMilliunits":40000,"keptMilliunits":27500}"#))
    #expect(report.csv().contains("at_stake_EUR,kept_EUR,at_stake_USD,kept_USD"))
    // The prorated refund gave back a quarter, as the text's average says.
    let all = report.csv().split(separator: "\n").first { $0.hasPrefix(",,,,all,all,") }
    #expect(all?.contains(",25.000,") == true, "\(all ?? "")")
  }

  /// A prorated refund's kept share is rounded to the nearest milliunit, not cut: of a price of
  /// 999 milliunits, 33.334% given back keeps 665.99334 (666, where cutting made it 665) and
  /// half keeps 499.5 (500, not 499).
  @Test(arguments: [(33_333, 666), (33_334, 666), (50_000, 500), (99_999, 0)])
  func aProratedShareKeptIsRoundedToTheMilliunit(percentage: Int, kept: Int64) throws {
    let report = OutcomeReport([
      Self.decision(
        at: Self.monday, [.refund], price: 999, revocation: "REFUND_PRORATED",
        percentage: percentage)
    ])
    #expect(try #require(report.all.money["EUR"]).kept == kept)
  }

  /// Google sends no decline: a review is counted apart and left out of the refund rate, a
  /// voided purchase counted as its refund.
  @Test func googlePlayReviewsAreLeftOutOfTheRefundRate() {
    let report = OutcomeReport([
      Self.decision(at: Self.monday, [.refundDeclined]),
      Self.decision(at: Self.monday, [.refund], price: nil, environment: "GooglePlay"),
      Self.decision(at: Self.monday, [], price: nil, environment: "GooglePlay"),
    ])
    #expect(report.all.googlePlayReviews == 2)
    #expect(report.all.googlePlayVoided == 1)
    #expect(report.all.refunded == 1)
    #expect(report.all.refundRate == 0)
    #expect(report.all.googlePlayVoidedRate == 0.5)
    #expect(report.all.unpriced == 2)
    #expect(report.text().contains("Google Play: 2 reviews, 1 voided (50.0%"))
  }

  @Test func theDecidingPoliciesAreNamedWithVersionAndHash() {
    let report = OutcomeReport([Self.decision(at: Self.monday)], by: ReportPeriod(.month))
    #expect(report.policies == [.init(name: "p", version: "3", sha256: "abc", decisions: 1)])
    let html = report.html()
    #expect(html.contains("<code class=\"hash\">abc</code>"))
    #expect(html.contains("id=\"requests-over-time\""))
  }

  /// A body written with spaces is read whole rather than taken for one without a preference.
  @Test(arguments: [
    (#"{"refundPreference":"GRANT_FULL"}"#, "GRANT_FULL"),
    (#"{"refundPreference" : "DECLINE"}"#, "DECLINE"), (#"{"deliveryStatus":"DELIVERED"}"#, nil),
  ])
  func thePreferenceSentIsReadFromTheBody(_ body: String, _ preference: String?) {
    #expect(ReportedRequest.refundPreference(Data(body.utf8)) == preference)
  }

  /// A fixed-offset zone is printed at its own offset, in summer too: Foundation printed EST
  /// with New York's daylight time.
  @Test(arguments: [("EST", "2026-07-10T00:00:00-05:00"), ("MST", "2026-07-10T00:00:00-07:00")])
  func aFixedOffsetZoneIsPrintedAtItsOwnOffset(zone: String, printed: String) throws {
    let timeZone = try #require(TimeZone(identifier: zone))
    let midnight = try #require(
      Calendar(identifier: .gregorian).date(
        from: DateComponents(timeZone: timeZone, year: 2026, month: 7, day: 10)))
    #expect(ReportPeriod(.day, timeZone: timeZone).timestamp(midnight) == printed)
  }
}
