import Testing

@testable import ReckonPolicy

/// The warnings for rules whose body Apple refuses for some requests they decide, so that no reply
/// is sent: GRANT_PRORATED without a percentage strictly between 0% and 100%, and a `set` of
/// consumptionPercentage for a subscription or, other than 0%, for a purchase not delivered. They
/// read `and`, `or`, `not` and lets, and never warn about a rule that cannot send such a body.
struct NoReplyCheckTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    let policy: String
    let warns: Bool
    var testDescription: String { label }
  }

  /// Rules after one that decides every undelivered purchase, as in docs/cookbook.md.
  static let undeliveredFirst =
    "rule \"undelivered\" when delivery.status != DELIVERED then refund GRANT_FULL\n"

  static let prorated: [Case] = [
    Case(
      label: "a subscription or a bounded usage, written with or",
      policy:
        "rule \"a\" when reason == OTHER and (product.type == AUTO_RENEWABLE or (usage.consumed > 0% and usage.consumed < 100%)) then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "not 0% and not 100%, written with not and or",
      policy:
        "rule \"a\" when reason == LEGAL and not (usage.consumed == 0% or usage.consumed == 100%) then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "the bound in a let",
      policy:
        "let partly = usage.consumed > 0% and usage.consumed < 100%\nrule \"a\" when reason == LEGAL and partly then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "the bound in a let read through not",
      policy:
        "let extreme = usage.consumed <= 0% or usage.consumed >= 100%\nrule \"a\" when not extreme then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "only one side of the or bounded",
      policy:
        "rule \"a\" when reason == OTHER and (product.type == AUTO_RENEWABLE or usage.consumed > 0%) then refund GRANT_PRORATED",
      warns: true),
    Case(
      label: "an or whose other side lets any usage through",
      policy:
        "rule \"a\" when (usage.consumed > 0% and usage.consumed < 100%) or reason == LEGAL then refund GRANT_PRORATED",
      warns: true),
    Case(
      label: "a part it cannot read about another fact is no bound",
      policy: "rule \"a\" when now - purchase.date < 1 day then refund GRANT_PRORATED", warns: true),
    Case(
      label: "a part it cannot read about the usage may be a bound: no warning",
      policy:
        "rule \"a\" when usage.consumed * 2 > 10% and usage.consumed / 2 < 47.5% then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "otherwise after rules that decide 0%, 100% and a missing usage",
      policy:
        "rule \"ends\" when usage.consumed == 0% or usage.consumed == 100% or usage.consumed is missing then refund DECLINE\notherwise refund GRANT_PRORATED",
      warns: false),
    // A numeric `in` list is read as the `or` of its members.
    Case(
      label: "an in list of percentages that holds 0%",
      policy:
        "rule \"a\" when delivery.status == DELIVERED and usage.consumed in [0%, 50%] then refund GRANT_PRORATED",
      warns: true),
    Case(
      label: "an in list of percentages strictly between 0% and 100%",
      policy:
        "rule \"a\" when delivery.status == DELIVERED and usage.consumed in [10%, 50%] then refund GRANT_PRORATED",
      warns: false),
    Case(
      label: "a not in list that leaves 0% and 100% out",
      policy:
        "rule \"a\" when usage.consumed is not missing and usage.consumed not in [0%, 100%] then refund GRANT_PRORATED",
      warns: false),
    // `follow` prefers the choice for the requests whose fact holds it.
    Case(
      label: "following a fact that may hold GRANT_PRORATED, the usage unbounded",
      policy:
        "rule \"a\" when customer.override is not missing then follow customer.override",
      warns: true),
    Case(
      label: "following a fact the condition keeps from GRANT_PRORATED",
      policy:
        "rule \"a\" when customer.override is not missing and customer.override != GRANT_PRORATED then follow customer.override",
      warns: false),
    Case(
      label: "following a fact with the usage bounded",
      policy:
        "rule \"a\" when customer.override is not missing and usage.consumed > 0% and usage.consumed < 100% then follow customer.override",
      warns: false),
    Case(
      label: "otherwise after rules that leave a missing usage to it",
      policy:
        "rule \"ends\" when usage.consumed == 0% or usage.consumed == 100% then refund DECLINE\notherwise refund GRANT_PRORATED",
      warns: true),
  ]

  @Test(
    "GRANT_PRORATED is warned about exactly when a request can reach it unbounded",
    arguments: prorated)
  func proratedWarnsOnlyWhenReachableUnbounded(_ example: Case) {
    let result = TestSchema.load(Self.undeliveredFirst + example.policy)
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    let ids = result.diagnostics.map(\.id).filter { $0 == .proratedWithoutUsageBound }
    #expect(ids.count == (example.warns ? 1 : 0), "\(result.renderedDiagnostics())")
  }

  struct Message: CustomTestStringConvertible, Sendable {
    let label: String
    let policy: String
    let id: DiagnosticID
    let message: String
    let hint: String
    var testDescription: String { label }
  }

  static let messages: [Message] = [
    Message(
      label: "otherwise has no condition: the hint is a rule above it",
      policy: "otherwise refund GRANT_PRORATED", id: .proratedWithoutUsageBound,
      message:
        "'otherwise' prefers GRANT_PRORATED, but Reckon sends no reply to a request it decides unless delivery.status is DELIVERED and usage.consumed is strictly between 0% and 100% (or product.type is AUTO_RENEWABLE): Apple refuses GRANT_PRORATED otherwise",
      hint:
        "put a rule above 'otherwise' for requests where delivery.status != DELIVERED or usage.consumed is not strictly between 0% and 100%, or prefer another refund in 'otherwise'"
    ),
    Message(
      label: "a rule's hint names only what is missing",
      policy: undeliveredFirst + "rule \"a\" when reason == OTHER then refund GRANT_PRORATED",
      id: .proratedWithoutUsageBound,
      message:
        "rule 'a' prefers GRANT_PRORATED, but Reckon sends no reply to a request it decides unless delivery.status is DELIVERED and usage.consumed is strictly between 0% and 100% (or product.type is AUTO_RENEWABLE): Apple refuses GRANT_PRORATED otherwise",
      hint: "add usage.consumed > 0% and usage.consumed < 100% to the condition"),
    Message(
      label: "GRANT_PRORATED with the percentage set to 0%",
      policy:
        "rule \"a\" when usage.consumed > 0% and usage.consumed < 100% and delivery.status == DELIVERED then refund GRANT_PRORATED, set consumptionPercentage = 0%",
      id: .proratedWithoutUsageBound,
      message:
        "rule 'a' prefers GRANT_PRORATED but sets consumptionPercentage to 0%, so Reckon never sends a reply for it: Apple refuses GRANT_PRORATED unless consumptionPercentage is strictly between 0% and 100%, and takes no consumptionPercentage for AUTO_RENEWABLE products",
      hint: "set a percentage strictly between 0% and 100%, or prefer another refund"),
    Message(
      label: "GRANT_PRORATED with the delivery set to undelivered",
      policy:
        "rule \"a\" when product.type == CONSUMABLE then refund GRANT_PRORATED, set deliveryStatus = UNDELIVERED_OTHER",
      id: .proratedWithoutUsageBound,
      message:
        "rule 'a' prefers GRANT_PRORATED but sets deliveryStatus to UNDELIVERED_OTHER, so Reckon sends no reply to a request it decides unless product.type is AUTO_RENEWABLE: a purchase not DELIVERED is sent with consumptionPercentage 0%, and Apple refuses GRANT_PRORATED unless consumptionPercentage is strictly between 0% and 100%",
      hint: "prefer another refund for a purchase not DELIVERED, or remove the set"),
    Message(
      label: "a percentage set where subscriptions and undelivered purchases reach it",
      policy:
        "rule \"a\" when reason == LEGAL then refund DECLINE, set consumptionPercentage = 50%",
      id: .percentageAppleRefuses,
      message:
        "rule 'a' sets consumptionPercentage to 50%, so Reckon sends no reply when it decides a request whose product.type is AUTO_RENEWABLE (Apple takes no consumptionPercentage then) or whose delivery.status is not DELIVERED (Apple takes only 0% then)",
      hint:
        "add product.type != AUTO_RENEWABLE and delivery.status == DELIVERED to the condition, or decide those requests in a rule above it"
    ),
    Message(
      label: "a percentage set in otherwise",
      policy: undeliveredFirst
        + "otherwise refund GRANT_FULL, set consumptionPercentage = usage.consumed",
      id: .percentageAppleRefuses,
      message:
        "'otherwise' sets consumptionPercentage, so Reckon sends no reply when it decides a request whose product.type is AUTO_RENEWABLE (Apple takes no consumptionPercentage then)",
      hint:
        "put a rule above 'otherwise' for requests where product.type == AUTO_RENEWABLE, or remove the set"
    ),
    Message(
      label: "a percentage set beside an undelivered status",
      policy:
        "rule \"a\" when product.type == CONSUMABLE then refund DECLINE, set deliveryStatus = UNDELIVERED_OTHER, set consumptionPercentage = 50%",
      id: .percentageAppleRefuses,
      message:
        "rule 'a' sets deliveryStatus to UNDELIVERED_OTHER and consumptionPercentage to 50%, so Reckon never sends a reply for it: Apple takes only 0% for a purchase not DELIVERED, and no consumptionPercentage for AUTO_RENEWABLE products",
      hint: "remove the set of consumptionPercentage: Reckon sends 0% for a purchase not DELIVERED"),
  ]

  @Test("each no-reply warning says the consequence and a fix that fits", arguments: messages)
  func saysTheConsequence(_ example: Message) throws {
    let result = TestSchema.load(example.policy)
    let warnings = result.diagnostics.filter { $0.id == example.id }
    #expect(warnings.count == 1, "\(result.renderedDiagnostics())")
    let warning = try #require(warnings.first)
    #expect(warning.message == example.message)
    #expect(warning.hint == example.hint)
  }

  /// Rules that set the percentage where Apple takes it draw no warning.
  @Test(arguments: [
    "rule \"a\" when product.type != AUTO_RENEWABLE and delivery.status == DELIVERED then refund DECLINE, set consumptionPercentage = 50%",
    "rule \"a\" when product.type != AUTO_RENEWABLE then refund DECLINE, set deliveryStatus = DELIVERED, set consumptionPercentage = 50%",
    "rule \"a\" when product.type != AUTO_RENEWABLE then refund DECLINE, set consumptionPercentage = 0%",
    "rule \"subscriptions\" when product.type == AUTO_RENEWABLE then share data only\n"
      + undeliveredFirst
      + "otherwise refund GRANT_PRORATED, set consumptionPercentage = 50%",
  ])
  func aPercentageWhereAppleTakesItIsFine(_ policy: String) {
    let result = TestSchema.load(policy)
    #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
  }

  /// A policy of many rules that each could prefer GRANT_PRORATED is checked in bounded time.
  @Test func manyRulesAreCheckedInBoundedTime() {
    let lines = (0..<400).map { index in
      "rule \"r\(index)\" when reason == \(["LEGAL", "OTHER"][index % 2]) and usage.consumed > \(index % 50)% "
        + "and (customer.refunds_last_90_days > \(index % 7) or delivery.status == DELIVERED) "
        + "then refund GRANT_PRORATED"
    }
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      _ = TestSchema.load(lines.joined(separator: "\n") + "\notherwise refund GRANT_PRORATED\n")
    }
    #expect(elapsed < .seconds(10))
  }
}
