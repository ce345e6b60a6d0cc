import ReckonAppStore
import ReckonEngine
import Testing

/// The gates no policy can get past: consent, required facts, and Apple's rules.
struct SafetyGateTests {
  @Test(arguments: ["false", nil] as [String?])
  func noConsentMeansNoReplyWhateverThePolicySays(consent: String?) throws {
    let decision = try Scenario().with("customer.consented", consent).decide(
      "otherwise refund GRANT_FULL")
    #expect(decision.action == .skip(.noConsent(consent ?? "missing")))
    #expect(decision.body == nil)
    #expect(!decision.responds)
  }

  @Test func doNotRespondSendsNothing() throws {
    let decision = try Scenario().decide(#"rule "quiet" when true then do not respond"#)
    #expect(decision.action == .skip(.policyDoesNotRespond(rule: "quiet")))
  }

  @Test(arguments: [
    ("delivery.status", "deliveryStatus"), ("product.sample_offered", "sampleContentProvided"),
  ])
  func aMissingRequiredFactMeansNoReplyNamingTheFact(fact: String, field: String) throws {
    let decision = try Scenario().with(fact, nil).decide("otherwise refund DECLINE")
    #expect(decision.action == .skip(.missingRequiredFact(field: field, fact: fact)))
  }

  @Test func aRuleCanSupplyARequiredFieldThatNoFactGives() throws {
    let decision = try Scenario().with("delivery.status", nil)
      .decide(#"rule "r" when true then refund DECLINE, set deliveryStatus = DELIVERED"#)
    #expect(decision.action == .respond)
    #expect(decision.fieldSources["deliveryStatus"] == .rule("r"))
  }

  @Test func aSetThatReadsAMissingFactMeansNoReply() throws {
    let decision = try Scenario().with("usage.last_used", nil)
      .decide(
        #"rule "r" when true then refund DECLINE, set consumptionPercentage = usage.consumed + (now - usage.last_used) / 1 day * 1%"#
      )
    #expect(
      decision.action
        == .skip(
          .setReadsMissingFact(
            field: "consumptionPercentage", rule: "r", because: "usage.last_used is missing")))
  }

  /// The contract: a reply that is not sent for want of a fact is recorded with the fact's name.
  @Test func aSetThatReadsAMissingFactNamesIt() throws {
    let decision = try Scenario().with("usage.consumed", nil)
      .decide(
        #"rule "r" when true then refund DECLINE, set consumptionPercentage = usage.consumed"#)
    guard case .skip(let reason) = decision.action else {
      Issue.record("expected no reply, got \(decision.action)")
      return
    }
    #expect(
      reason.description
        == "no reply: rule 'r' cannot set consumptionPercentage: usage.consumed is missing")
  }

  struct AppleRuleCase: CustomTestStringConvertible, Sendable {
    let policy: String
    let productType: ProductType
    let delivery: String
    let usage: String
    let violation: AppleRuleViolation?
    var testDescription: String { "\(policy) for \(productType.rawValue), \(delivery), \(usage)" }
  }

  static let appleRuleCases: [AppleRuleCase] = [
    .init(
      policy: "refund GRANT_PRORATED", productType: .consumable, delivery: "DELIVERED", usage: "0%",
      violation: .grantProratedConsumptionPercentage),
    .init(
      policy: "refund GRANT_PRORATED", productType: .consumable, delivery: "DELIVERED",
      usage: "0.001%", violation: nil),
    .init(
      policy: "refund GRANT_PRORATED", productType: .consumable, delivery: "DELIVERED",
      usage: "99.999%", violation: nil),
    .init(
      policy: "refund GRANT_PRORATED", productType: .nonConsumable, delivery: "DELIVERED",
      usage: "100%", violation: .grantProratedConsumptionPercentage),
    .init(
      policy: "refund GRANT_PRORATED", productType: .autoRenewable, delivery: "DELIVERED",
      usage: "100%", violation: nil),
    .init(
      policy: "refund GRANT_PRORATED", productType: .nonRenewing, delivery: "UNDELIVERED_OTHER",
      usage: "50%", violation: .grantProratedConsumptionPercentage),
    .init(
      policy: "refund GRANT_FULL, set consumptionPercentage = 30%", productType: .autoRenewable,
      delivery: "DELIVERED", usage: "30%",
      violation: .consumptionPercentageAutoRenewableSubscription),
    .init(
      policy: "refund GRANT_FULL, set consumptionPercentage = 1%", productType: .consumable,
      delivery: "UNDELIVERED_OTHER", usage: "0%",
      violation: .undeliveredConsumptionPercentageNonZero),
    .init(
      policy: "refund GRANT_FULL, set consumptionPercentage = usage.consumed * 2",
      productType: .consumable, delivery: "DELIVERED",
      usage: "50.0005%", violation: .consumptionPercentageOutOfRange),
    .init(
      policy: "refund GRANT_FULL, set consumptionPercentage = usage.consumed * 2",
      productType: .consumable, delivery: "DELIVERED",
      usage: "50%", violation: nil),
    .init(
      policy: "refund DECLINE", productType: .consumable, delivery: "UNDELIVERED_QUALITY_ISSUE",
      usage: "100%", violation: nil),
  ]

  @Test(arguments: appleRuleCases)
  func aBodyThatBreaksAnAppleRuleIsNeverSentAndNamesTheRule(_ example: AppleRuleCase) throws {
    var scenario = Scenario().with("delivery.status", example.delivery).with(
      "usage.consumed", example.usage)
    scenario.productType = example.productType
    let decision = try scenario.decide("rule \"r\" when true then \(example.policy)")
    if let violation = example.violation {
      guard case .skip(.violatesAppleRules(let violations)) = decision.action else {
        Issue.record("expected a skip naming \(violation.errorName), got \(decision.action)")
        return
      }
      #expect(violations.contains(violation))
      // Said in words a product owner can act on, with Apple's name for searching where Apple
      // has one (Reckon's own name would not be found in Apple's documentation).
      let reason = SkipReason.violatesAppleRules(violations).description
      #expect(reason.contains(violation.message))
      #expect(reason.contains(violation.errorName) == violation.isNamedByApple, "\(reason)")
    } else {
      #expect(decision.action == .respond)
    }
  }

  @Test func familySharedTransactionsAreNotAnswered() throws {
    var scenario = Scenario()
    scenario.ownership = .familyShared
    let decision = try scenario.decide("otherwise refund DECLINE")
    #expect(decision.action == .skip(.violatesAppleRules([.familyTransactionNotSupported])))
  }

  /// Apple's rules for a percentage and for GRANT_PRORATED depend on the product type: without
  /// a type Reckon knows they cannot be checked, so such a body is not sent; one without them
  /// is the same for every type, and goes.
  @Test(
    arguments: [
      ("refund DECLINE", nil), ("refund GRANT_FULL", "CONSUMABLE_V2"),
      ("refund GRANT_PRORATED", nil),
      ("refund DECLINE, set consumptionPercentage = 40%", "CONSUMABLE_V2"),
      ("refund GRANT_FULL, set consumptionPercentage = 40%", nil),
    ] as [(String, String?)])
  func aBodyWhoseRulesNeedTheProductTypeIsNotSentWithoutIt(actions: String, unknownType: String?)
    throws
  {
    var scenario = Scenario().with("usage.consumed", nil)
    scenario.productType = nil
    scenario.unknownProductType = unknownType
    let decision = try scenario.decide("otherwise \(actions)")
    let needsType = actions.contains("Percentage") || actions.contains("PRORATED")
    #expect(decision.action == (needsType ? .skip(.productTypeUnknown) : .respond))
  }

  @Test func theReasonForAnUnknownProductTypeSaysWhatCannotBeChecked() {
    #expect(
      SkipReason.productTypeUnknown.description
        == "no reply: the transaction's product type is missing or unknown, so the body's "
        + "consumptionPercentage or GRANT_PRORATED cannot be checked against Apple's rules for it")
  }

  /// Apple answers 400 AdvancedCommerceTransactionNotSupportedError for these.
  @Test func advancedCommerceTransactionsAreNotAnswered() throws {
    var scenario = Scenario()
    scenario.advancedCommerceInfo = .object(["estimatedTax": .integer(1_500)])
    let decision = try scenario.decide("otherwise refund DECLINE")
    #expect(
      decision.action == .skip(.violatesAppleRules([.advancedCommerceTransactionNotSupported])))
  }
}
