import Foundation
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonState
import Testing

/// A Google Play review is decided by the same language over Google's words, and answered with
/// a body that keeps Google's rules.
@Suite struct GooglePlayDecisionTests {
  static let policy = """
    policy "play" version 1
    rule "friendly fraud"
      when reason is not missing and reason == FRIENDLY_FRAUD and usage.consumed >= 40%
      then refund DECLINE
    rule "barely used"
      when usage.consumed < 5%
      then refund APPROVE
    otherwise share data only
    """

  @Test func theDecidingRulesPreferenceIsSentWithTheUsageAsMilliunits() throws {
    let decision = try GooglePlayScenario().decide(Self.policy)
    #expect(decision.rule == "friendly fraud")
    #expect(decision.action == .respond)
    #expect(decision.store == .googlePlay)
    #expect(
      decision.answer
        == ReviewRefundRequest(
          pendingRefundToken: "prt-1", sampleContentProvided: false, refundPreference: .decline,
          consumptionPercentageMilliunits: 45_200))
    #expect(decision.fieldSources["refundPreference"] == .rule("friendly fraud"))
    #expect(decision.fieldSources["consumptionPercentage"] == .fact("usage.consumed"))
    #expect(decision.fieldSources["sampleContentProvided"] == .fact("product.sample_offered"))
  }

  @Test func sharingDataOnlyAnswersNeutral() throws {
    let decision = try GooglePlayScenario(reason: .remorse).decide(Self.policy)
    #expect(decision.rule == "otherwise")
    #expect(decision.answer?.refundPreference == .neutral)
    guard case .default(let why)? = decision.fieldSources["refundPreference"] else {
      Issue.record(
        "not a default: \(String(describing: decision.fieldSources["refundPreference"]))")
      return
    }
    #expect(why.contains("Google takes no answer without a preference"))
  }

  @Test func anUnknownReasonNumberDecidesAsAMissingReason() throws {
    let decision = try GooglePlayScenario(reason: .unrecognized(42)).decide(Self.policy)
    #expect(decision.rule == "otherwise")
    #expect(decision.facts.values["reason"] == nil)
  }

  @Test func noConsentNoAnswer() throws {
    let decision = try GooglePlayScenario().with("customer.consented", "false").decide(Self.policy)
    #expect(decision.action == .skip(.noConsent("false")))
    #expect(decision.reply == nil)
  }

  @Test func noSampleFactAndNoRuleSettingItNoAnswer() throws {
    let decision = try GooglePlayScenario().with("product.sample_offered", nil).decide(Self.policy)
    #expect(
      decision.action
        == .skip(
          .missingRequiredFact(field: "sampleContentProvided", fact: "product.sample_offered")))
  }

  @Test func anUndeliveredPurchaseWasNotUsed() throws {
    let decision = try GooglePlayScenario(reason: .notReceived)
      .with("delivery.status", "UNDELIVERED_SERVER_OUTAGE").decide(Self.policy)
    #expect(decision.answer?.consumptionPercentageMilliunits == 0)
  }

  @Test func anAnswerBreakingGooglesRulesIsNeverSent() throws {
    let decision = try GooglePlayScenario().decide(
      "otherwise refund NEUTRAL, set consumptionPercentage = usage.consumed * 3")
    #expect(decision.action == .skip(.violatesGooglePlayRules([.consumptionOutOfRange(135_600)])))
    #expect(decision.answer?.consumptionPercentageMilliunits == 135_600)
  }

  @Test func aHoldClauseHoldsTheAnswer() throws {
    let decision = try GooglePlayScenario().decide(
      """
      hold "big spender" when customer.lifetime_spent > 100 USD
      otherwise refund DECLINE
      """
    )
    // No lifetime spend fact: the hold does not apply.
    #expect(decision.action == .respond)
    let held = try GooglePlayScenario().with("customer.lifetime_spent", "250 USD").decide(
      """
      hold "big spender" when customer.lifetime_spent > 100 USD
      otherwise refund DECLINE
      """
    )
    #expect(held.action == .hold)
    #expect(held.heldBy == "big spender")
  }

  @Test func theStoredBodyIsTheBytesTheClientSends() throws {
    let decision = try GooglePlayScenario().decide(Self.policy)
    let answer = try #require(decision.answer)
    guard case .success(let validated) = ReviewRefundValidator.validate(answer) else {
      Issue.record("refused")
      return
    }
    #expect(decision.reply?.json == validated.data)
    let loaded = PolicyLoader.load(
      SourceFile(path: "play.policy", text: Self.policy), schema: FactSchema.googlePlay.policySchema
    )
    let record = DecisionRecord(
      decision: decision, policy: try #require(loaded.policy), policyText: Self.policy)
    #expect(record.body == validated.data)
    #expect(record.action == "respond")
  }

  @Test func theExplanationNamesGooglePlay() throws {
    let loaded = PolicyLoader.load(
      SourceFile(path: "play.policy", text: Self.policy), schema: FactSchema.googlePlay.policySchema
    )
    let policy = try #require(loaded.policy)
    let decision = try GooglePlayScenario().decide(Self.policy, trace: true)
    let text = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(
      text.hasPrefix("respond: send the body to Google Play (decided by rule \"friendly fraud\")"))
    #expect(text.contains(#""refundPreference":"DECLINE""#))
    #expect(text.contains("consumptionPercentage = 45200, from fact usage.consumed"), "\(text)")
  }

  @Test func theReviewsOwnFactsComeFromTheNotification() throws {
    let request = GooglePlayScenario().request
    #expect(request.keys.transactionId == "GPA.3312-5841-2290-11234")
    #expect(request.keys.appAccountToken == "acct-7")
    #expect(request.keys.bundleId == "com.example.play")
    #expect(request.deadline == Date(timeIntervalSince1970: 1_796_000_000 + 86_400))
    let facts = try GooglePlayScenario().gathered()
    #expect(facts.provenance["order.id"] == "notification")
    #expect(facts.provenance["request.package_name"] == "notification")
    #expect(facts.values["customer.obfuscated_account_id"] == .text("acct-7"))
    #expect(request.appKey == AppKey(bundleId: "com.example.play", environment: "GooglePlay"))
  }

  /// Google's account id is the app's own text, not a UUID: its case is part of it.
  @Test func anObfuscatedAccountIdIsAskedForAsWritten() throws {
    var scenario = GooglePlayScenario()
    scenario.accountId = "Acct-7X"
    #expect(scenario.request.keys.appAccountToken == "Acct-7X")
    #expect(scenario.request.customer == .appAccountToken("Acct-7X"))
    #expect(try scenario.gathered().values["customer.obfuscated_account_id"] == .text("Acct-7X"))
  }
}
