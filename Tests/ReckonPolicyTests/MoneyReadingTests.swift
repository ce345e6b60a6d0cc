import Testing

@testable import ReckonPolicy

/// An amount of money in a fact is digits, at most one point and three decimals, and one optional
/// leading minus: a sign anywhere else is refused, never read as arithmetic.
struct MoneyReadingTests {
  @Test(arguments: [
    "5.-5 USD", "5.+5 USD", "--5.5 USD", "+5 USD", "-+5 USD", "5.5.5 USD", "-.5 USD", "5.5- USD",
    "5 .5 USD",
  ])
  func anAmountWithASignInsideIsRefused(_ text: String) {
    #expect(throws: ValueParseError.self, "\(text) was read") {
      try ValueParser.parse(text, as: .money)
    }
  }

  @Test func theRefusalSaysToWriteDigitsWithOneLeadingMinus() throws {
    let error = #expect(throws: ValueParseError.self) {
      try ValueParser.parse("5.-5 USD", as: .money)
    }
    #expect(
      error?.hint
        == "write the amount in digits, with at most one point and one leading minus, such as 4.99 USD or -4.99 USD"
    )
  }

  @Test(arguments: [
    ("5 USD", Int64(5_000)), ("-5.5 USD", -5_500), ("0.001 EUR", 1), ("-0.5 USD", -500),
    ("12.34 USD", 12_340),
  ])
  func anAmountInDigitsIsReadExactly(_ text: String, _ milli: Int64) throws {
    let currency = String(text.suffix(3))
    #expect(try ValueParser.parse(text, as: .money) == .money(milli, currency: currency))
  }

  @Test(arguments: ["-5", "+5", "5.-5", "1.2345"])
  func thousandthsReadsOnlyDigits(_ text: String) {
    #expect(Parser.thousandths(of: text) == nil)
  }
}
