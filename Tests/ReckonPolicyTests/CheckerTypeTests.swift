import Testing

@testable import ReckonPolicy

struct CheckerTypeTests {
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    let condition: String
    let id: DiagnosticID
    let message: String
    var hint: String? = nil
    var testDescription: String { condition }
  }

  static let cases: [ErrorCase] = [
    ErrorCase(
      condition: "usage.consumed > 80", id: .typeMismatch,
      message: "cannot compare a percent with a number",
      hint: "write the number as a percentage: 80%"),
    ErrorCase(
      condition: "usage.consumed > 0.8", id: .typeMismatch,
      message: "cannot compare a percent with a number",
      hint: "write the number as a percentage: 80%"),
    ErrorCase(
      condition: "customer.refunds_last_90_days > 50%", id: .typeMismatch,
      message: "cannot compare a number with a percent",
      hint: "this is a number, not a percentage: compare it with a number, as in > 2"),
    ErrorCase(
      condition: "customer.refunds_last_90_days * 100 / 4 > 50%", id: .typeMismatch,
      message: "cannot compare a number with a percent",
      hint: "the number is already ×100: drop the %, as in > 50"),
    ErrorCase(
      condition: "usage.consumed > 0.07", id: .typeMismatch,
      message: "cannot compare a percent with a number",
      hint: "write the number as a percentage: 7%"),
    ErrorCase(
      condition: "customer.refunds_last_90_days / 4 > 50%",
      id: .typeMismatch, message: "cannot compare a number with a percent",
      hint: "a ratio is a number: write 50% as 0.5"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price > 5", id: .typeMismatch,
      message: "cannot compare an amount of money with a number",
      hint: "give the number a currency, as in 4.99 USD"),
    ErrorCase(
      condition: "customer.account_age > 30", id: .typeMismatch,
      message: "cannot compare a duration with a number",
      hint: "give the number a unit, as in 90 days"),
    ErrorCase(
      condition: "purchase.date > \"2026-01-01\"", id: .typeMismatch,
      message: "cannot compare a timestamp with text",
      hint:
        "a date is written without quotes, as in purchase.date >= 2026-11-01, and how long ago with now, as in now - purchase.date > 30 days"
    ),
    ErrorCase(
      condition: "now > 30 days", id: .typeMismatch,
      message: "cannot compare a timestamp with a duration",
      hint: "compare how long ago it was, as in now - purchase.date > 30 days"),
    ErrorCase(
      condition: "usage.consumed + 10 > 0%", id: .operatorTypeMismatch,
      message: "cannot apply '+' to a percent and a number",
      hint: "write the number as a percentage: 10%"),
    ErrorCase(
      condition: "(true + false) == true", id: .operatorTypeMismatch,
      message: "cannot apply '+' to a boolean and a boolean"),
    ErrorCase(
      condition: "now + purchase.date > now", id: .operatorTypeMismatch,
      message: "cannot apply '+' to a timestamp and a timestamp",
      hint: "subtract timestamps to get a duration, as in now - purchase.date"),
    ErrorCase(
      condition: "usage.consumed", id: .conditionNotBoolean,
      message: "the condition of rule 'r' must be true or false, but this is a percent",
      hint: "compare it with something, as in usage.consumed > 0%"),
    ErrorCase(
      condition: "true and 3", id: .conditionNotBoolean,
      message: "the right side of 'and' must be true or false, but this is a number",
      hint: "compare it with something, as in 3 > 0"),
    ErrorCase(
      condition: "not product.id", id: .conditionNotBoolean,
      message: "the operand of 'not' must be true or false, but this is text",
      hint: "compare it with something, as in product.id == \"com.example.coins\""),
    ErrorCase(
      condition: "delivery.status", id: .conditionNotBoolean,
      message: "the condition of rule 'r' must be true or false, but this is a delivery status",
      hint: "compare it with something, as in delivery.status == DELIVERED"),
    ErrorCase(
      condition: "customer.account_age or true", id: .conditionNotBoolean,
      message: "the left side of 'or' must be true or false, but this is a duration",
      hint: "compare it with something, as in customer.account_age > 30 days"),
    ErrorCase(
      condition: "usage.consumed = 5%", id: .assignmentInCondition,
      message: "'=' gives a value; it does not compare", hint: "to compare, write =="),
    ErrorCase(
      condition: "delivery.status < DELIVERED", id: .typeMismatch,
      message: "'<' does not apply to a delivery status",
      hint:
        "a delivery status has no order: compare it with == or !=, or list the values that qualify, as in delivery.status in [DELIVERED, UNDELIVERED_QUALITY_ISSUE]"
    ),
    ErrorCase(
      condition: "product.id starts with 3", id: .typeMismatch,
      message: "cannot compare text with a number"),
    ErrorCase(
      condition: "reason == product.type", id: .typeMismatch,
      message: "cannot compare a reason with a product type",
      hint:
        "a reason is one of UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, LEGAL, …: compare it with one, as in reason == UNINTENDED_PURCHASE"
    ),
    ErrorCase(
      condition: "reason in [LEGAL, 3]", id: .listTypeMismatch,
      message:
        "the list holds a number, but reason takes values such as UNINTENDED_PURCHASE, FULFILLMENT_ISSUE"
    ),
    ErrorCase(
      condition: "reason == \"LEGAL\"", id: .typeMismatch,
      message: "cannot compare a reason with text",
      hint: "drop the quotes: write LEGAL, not \"LEGAL\""),
    ErrorCase(
      condition: "\"unintended purchase\" != reason", id: .typeMismatch,
      message: "cannot compare text with a reason",
      hint: "drop the quotes: write UNINTENDED_PURCHASE, not \"unintended purchase\""),
    ErrorCase(
      condition: "reason in [LEGAL, \"OTHER\"]", id: .listTypeMismatch,
      message:
        "the list holds text, but reason takes values such as UNINTENDED_PURCHASE, FULFILLMENT_ISSUE",
      hint: "drop the quotes: write OTHER, not \"OTHER\""),
    ErrorCase(
      condition: "customer.account_age < 1 month", id: .unknownUnit,
      message: "unknown unit 'month'",
      hint:
        "a month has no fixed length: write days, as in 30 days; the units are seconds, minutes, hours, days and weeks"
    ),
    ErrorCase(
      condition: "customer.account_age > 30 Days", id: .unknownUnit, message: "unknown unit 'Days'",
      hint: "write the unit in lower case: 'days'"),
    ErrorCase(
      condition: "customer.account_age > 2 hrs", id: .unknownUnit, message: "unknown unit 'hrs'",
      hint:
        "write the unit in full, as in 12 hours; the units are seconds, minutes, hours, days and weeks"
    ),
    ErrorCase(condition: "-true", id: .invalidOperand, message: "a boolean cannot be negated"),
    ErrorCase(
      condition: "round(1, 2) > 0", id: .invalidArguments,
      message: "round takes one number or percentage"),
    ErrorCase(
      condition: "round(now) > 0", id: .invalidArguments,
      message: "round takes one number or percentage"),
    ErrorCase(
      condition: "min(1) > 0", id: .invalidArguments,
      message: "min takes two or more values of the same kind"),
    ErrorCase(
      condition: "max(1, 2%) > 0", id: .invalidArguments,
      message: "max takes two or more values of the same kind"),
    ErrorCase(
      condition: "max(true, false)", id: .invalidArguments,
      message: "max takes two or more values of the same kind"),
    ErrorCase(
      condition: "4.99 USD == 4.99 EUR", id: .currencyMismatch,
      message: "cannot compare USD with EUR",
      hint:
        "compare amounts in the same currency, or give both a rate under currencies in reckon.json"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price > 1 USD + 1 EUR",
      id: .currencyMismatch,
      message: "cannot combine USD with EUR", hint: "write both amounts in the same currency"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price > min(1 USD, 2 EUR)",
      id: .currencyMismatch,
      message: "cannot combine USD with EUR", hint: "write both amounts in the same currency"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price + 5 EUR > 10 USD",
      id: .currencyMismatch,
      message: "cannot compare EUR with USD",
      hint:
        "compare amounts in the same currency, or give both a rate under currencies in reckon.json"),
    ErrorCase(
      condition:
        "purchase.price is not missing and max(purchase.price, 5 EUR) * 2 <= min(purchase.price, 3 USD)",
      id: .currencyMismatch, message: "cannot compare EUR with USD",
      hint:
        "compare amounts in the same currency, or give both a rate under currencies in reckon.json"),
    ErrorCase(
      condition:
        "purchase.price is not missing and purchase.price - 5 EUR - 1 USD > purchase.price",
      id: .currencyMismatch, message: "cannot combine EUR with USD",
      hint: "write both amounts in the same currency"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price > 10 USE", id: .unknownCurrency,
      message: "unknown currency 'USE'", hint: "did you mean 'USD'?"),
    ErrorCase(
      condition: "purchase.price is not missing and purchase.price > 10 XYZ", id: .unknownCurrency,
      message: "unknown currency 'XYZ'", hint: "write an ISO 4217 currency code, such as USD or EUR"
    ),
    ErrorCase(
      condition: "usage.consumed > 150%", id: .percentOutOfRange,
      message: "a percentage is between 0% and 100%"),
    ErrorCase(
      condition: "customer.refunds_last_90_days / 0 > 1", id: .divisionByZero,
      message: "division by zero"),
    ErrorCase(
      condition: "customer.refunds_last_90_days / (2 - 2) > 1", id: .divisionByZero,
      message: "division by zero"),
    ErrorCase(
      condition: "usage.consumed / 0% > 1", id: .divisionByZero, message: "division by zero"),
    ErrorCase(
      condition: "customer.account_age / 0 days > 1", id: .divisionByZero,
      message: "division by zero"),
  ]

  @Test("ill-typed conditions are reported with a hint where one helps", arguments: cases)
  func typeError(_ testCase: ErrorCase) throws {
    let result = TestSchema.load("rule \"r\" when \(testCase.condition) then refund DECLINE")
    let errors = result.diagnostics.filter(\.isError)
    let error = try #require(errors.first)
    #expect(errors.count == 1, "\(result.renderedDiagnostics())")
    #expect(error.id == testCase.id)
    #expect(error.message == testCase.message)
    #expect(error.hint == testCase.hint)
  }

  struct SetCase: CustomTestStringConvertible, Sendable {
    let action: String
    let id: DiagnosticID
    let message: String
    var hint: String? = nil
    var testDescription: String { action }
  }

  static let setCases: [SetCase] = [
    SetCase(
      action: "set sampleContentProvided = 3", id: .fieldTypeMismatch,
      message: "sampleContentProvided takes a boolean, but this is a number"),
    SetCase(
      action: "set consumptionPercentage = 40", id: .fieldTypeMismatch,
      message: "consumptionPercentage takes a percent, but this is a number",
      hint: "write a percentage with %, as in 40%"),
    SetCase(
      action: "set consumptionPercentage = 20% * 6", id: .percentOutOfRange,
      message: "consumptionPercentage must be between 0% and 100%"),
    SetCase(
      action: "set consumptionPercentage = -5%", id: .percentOutOfRange,
      message: "consumptionPercentage must be between 0% and 100%"),
  ]

  @Test("set values must fit their field", arguments: setCases)
  func setTypeError(_ testCase: SetCase) throws {
    let result = TestSchema.load("rule \"r\" when true then refund DECLINE, \(testCase.action)")
    let error = try #require(result.diagnostics.first { $0.isError })
    #expect(result.diagnostics.filter(\.isError).count == 1)
    #expect(error.id == testCase.id)
    #expect(error.message == testCase.message)
    #expect(error.hint == testCase.hint)
  }

  @Test(arguments: [
    "now - purchase.date > 30 days",
    "now - 30 days > purchase.date",
    "purchase.date + 30 days < now",
    "customer.account_age * 2 >= 1 day",
    "customer.account_age / 1 day > 3",
    "usage.consumed * 2 < 100%",
    "usage.consumed / 2 < 50%",
    "usage.consumed / 50% > 1",
    "usage.consumed - 10% > 0%",
    "purchase.price is not missing and purchase.price * 50% > 1 USD",
    "purchase.price is not missing and purchase.price * 2 - 1 USD > 1 USD",
    "purchase.price is not missing and purchase.price / 1 USD > 2",
    "purchase.price is not missing and purchase.price + 5 USD > max(purchase.price, 10 USD)",
    "purchase.price is not missing and purchase.price > purchase.price + 1 EUR",
    "purchase.price is not missing and purchase.price > 10 XCG",
    // Withdrawn, but past purchases carry them.
    "purchase.price is not missing and purchase.price > 10 HRK",
    "purchase.price is not missing and purchase.price > 10 ANG",
    "customer.refunds_last_90_days * 3 - 1 / 2 >= -1",
    "min(usage.consumed, 50%) < max(10%, 20%)",
    "round(usage.consumed) == 50%",
    "product.id ends with \".coins\" or product.id contains \"coin\"",
    "reason not in [LEGAL, FULFILLMENT_ISSUE]",
  ])
  func wellTypedConditionsLoad(_ condition: String) throws {
    _ = try TestSchema.compile("rule \"r\" when \(condition) then refund DECLINE")
  }

  @Test func conditionNodesAreTypedBoolean() throws {
    let condition = try TestSchema.checkedCondition("now - purchase.date > 30 days")
    #expect(condition.type == .boolean)
    guard case .compare(_, let left, let right) = condition.kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(left.type == .duration)
    #expect(right.constantValue == .duration(30 * 86_400))
  }

  /// A let carries its amount's currency to where it is used, as the amount itself would.
  @Test func aLetsCurrencyMeetsAnotherCurrencyAsAnError() throws {
    let result = TestSchema.load(
      """
      let fee = purchase.price + 5 EUR
      rule "r" when purchase.price is not missing and fee > 10 USD then refund DECLINE
      """)
    #expect(
      result.diagnostics.filter(\.isError).map(\.message) == ["cannot compare EUR with USD"],
      "\(result.renderedDiagnostics())")
  }
}
