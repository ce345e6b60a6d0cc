import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonTestSupport
import Testing

/// How the body is derived: facts first, then the deciding rule's overrides, then defaults.
struct BodyDerivationTests {
  @Test func bodyFieldsComeFromFactsWhenTheRuleSetsNothing() throws {
    let decision = try Scenario().decide("otherwise refund DECLINE")
    #expect(decision.action == .respond)
    #expect(
      decision.body
        == ConsumptionRequest(
          customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
          consumptionPercentage: 40_000,
          refundPreference: .decline))
    #expect(decision.fieldSources["deliveryStatus"] == .fact("delivery.status"))
    #expect(decision.fieldSources["consumptionPercentage"] == .fact("usage.consumed"))
    #expect(decision.fieldSources["refundPreference"] == .rule("otherwise"))
  }

  @Test func ruleOverridesWinOverFacts() throws {
    let decision = try Scenario().decide(
      """
      rule "r" when true then refund GRANT_FULL, set deliveryStatus = UNDELIVERED_SERVER_OUTAGE, set consumptionPercentage = 0%, set sampleContentProvided = true
      """)
    #expect(decision.body?.deliveryStatus == .undeliveredServerOutage)
    #expect(decision.body?.sampleContentProvided == true)
    #expect(decision.body?.consumptionPercentage == 0)
    #expect(decision.fieldSources["deliveryStatus"] == .rule("r"))
    #expect(decision.rule == "r")
  }

  @Test func shareDataOnlyLeavesRefundPreferenceOut() throws {
    let decision = try Scenario().decide("otherwise share data only")
    #expect(decision.action == .respond)
    #expect(decision.body?.refundPreference == nil)
  }

  @Test func fileWithoutOtherwiseSharesDataOnly() throws {
    let decision = try Scenario().decide(
      #"rule "never" when reason == LEGAL then refund GRANT_FULL"#)
    #expect(decision.action == .respond)
    #expect(decision.rule == "otherwise")
    #expect(decision.body?.refundPreference == nil)
  }

  @Test func percentageIsLeftOutForAutoRenewableSubscriptions() throws {
    var scenario = Scenario()
    scenario.productType = .autoRenewable
    let decision = try scenario.decide("otherwise refund GRANT_PRORATED")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == nil)
  }

  @Test func percentageIsForcedToZeroWhenNotDelivered() throws {
    let decision = try Scenario().with("delivery.status", "UNDELIVERED_WRONG_ITEM").with(
      "usage.consumed", "60%"
    )
    .decide("otherwise refund GRANT_FULL")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == 0)
  }

  @Test func percentageIsZeroWhenNotDeliveredEvenWithoutAUsageFact() throws {
    let decision = try Scenario().with("delivery.status", "UNDELIVERED_SERVER_OUTAGE").with(
      "usage.consumed", nil
    )
    .decide("otherwise refund GRANT_FULL")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == 0)
    #expect(
      decision.fieldSources["consumptionPercentage"]
        == .default("0: the purchase was not delivered, so nothing of it was used"))
  }

  @Test func anUndeliveredAutoRenewableSubscriptionStillGetsNoPercentage() throws {
    var scenario = Scenario().with("delivery.status", "UNDELIVERED_OTHER").with(
      "usage.consumed", nil)
    scenario.productType = .autoRenewable
    let decision = try scenario.decide("otherwise refund GRANT_FULL")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == nil)
  }

  @Test func percentageIsLeftOutWhenUsageIsMissing() throws {
    let decision = try Scenario().with("usage.consumed", nil).decide("otherwise refund DECLINE")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == nil)
  }

  @Test func percentagesBecomeMilliunits() throws {
    let decision = try Scenario().with("usage.consumed", "12.5%").decide(
      "otherwise share data only")
    #expect(decision.body?.consumptionPercentage == 12_500)
  }

  /// A usage strictly between 0% and 100%, as the rule checked, is sent strictly between 0 and
  /// 100000 however it rounds, so Apple's GRANT_PRORATED rule holds.
  @Test(arguments: [("99.9996%", 99_999), ("0.0004%", 1), ("99.9994%", 99_999), ("0.0006%", 1)])
  func aPartialUsageNeverRoundsToNoneOrAll(usage: String, milliunits: Int) throws {
    let decision = try Scenario().with("usage.consumed", usage).decide(
      """
      rule "partly used" when usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED
      """)
    #expect(decision.rule == "partly used")
    #expect(decision.action == .respond)
    #expect(decision.body?.consumptionPercentage == milliunits)
  }

  @Test(arguments: [("0%", 0), ("100%", 100_000)])
  func noneOrAllSetWithGrantProratedIsStillRefused(percent: String, milliunits: Int) throws {
    let decision = try Scenario().decide(
      #"rule "r" when true then refund GRANT_PRORATED, set consumptionPercentage = \#(percent)"#)
    #expect(decision.action == .skip(.violatesAppleRules([.grantProratedConsumptionPercentage])))
    #expect(decision.body?.consumptionPercentage == milliunits)
  }

  @Test func holdForReviewKeepsTheBodyButHolds() throws {
    let decision = try Scenario().decide(
      #"rule "big" when purchase.price > 1 USD then refund DECLINE, hold for review"#)
    #expect(decision.action == .hold)
    #expect(decision.body?.refundPreference == .decline)
  }

  @Test func nowIsTheRequestsReceiveTime() throws {
    let policy = #"rule "old" when now - purchase.date > 30 days then refund DECLINE"#
    var recent = Scenario()
    recent.receivedAt = recent.purchasedAt.addingTimeInterval(29 * 86_400)
    var old = Scenario()
    old.receivedAt = old.purchasedAt.addingTimeInterval(31 * 86_400)
    #expect(try recent.decide(policy).rule == "otherwise")
    #expect(try old.decide(policy).rule == "old")
    #expect(try old.decide(policy).decidedAt == old.receivedAt)
  }

  @Test func bodiesForApplesTestCasesMatchApplesExpectedJSON() throws {
    let full = try Scenario().with("usage.consumed", "50%").decide("otherwise refund GRANT_FULL")
    let minimal = try Scenario().with("delivery.status", "UNDELIVERED_QUALITY_ISSUE").with(
      "usage.consumed", nil
    )
    .decide("otherwise share data only")
    for (decision, name) in [
      (full, "consumptionRequestV2.full"), (minimal, "consumptionRequestV2.minimal"),
    ] {
      let url = AppleFixtures.url("\(name).json")
      var expected = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
      if name.hasSuffix("minimal") {
        // Apple's example leaves the percentage out; Reckon sends the 0 Apple's rule requires
        // when the purchase was not delivered.
        expected["consumptionPercentage"] = 0
      }
      let body = try #require(decision.body)
      let actual = try JSONSerialization.jsonObject(with: body.jsonData()) as? NSDictionary
      #expect(actual == NSDictionary(dictionary: expected), "\(name)")
    }
  }
}

extension BodyDerivationTests {
  /// A percentage the policy worked out beyond 100% is named with the value the body held,
  /// wherever the reason is shown: Apple's rule alone does not say what went wrong.
  @Test func aWorkedOutPercentageOutOfRangeIsNamedWithItsValue() throws {
    let decision = try Scenario().decide(
      """
      rule "double" when true then refund DECLINE, set consumptionPercentage = usage.consumed * 3
      """)
    guard case .skip(let reason) = decision.action else {
      Issue.record("decided \(decision.action)")
      return
    }
    #expect(
      reason.description(body: decision.body).hasSuffix(
        "(ConsumptionPercentageOutOfRangeError) The body had 120000 (120%)."))
  }
}
