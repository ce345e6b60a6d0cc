import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

/// `follow FACT` answers with the fact's value: for customer.override a refund preference,
/// NO_PREFERENCE shares data only, DO_NOT_RESPOND sends nothing.
struct FollowActionTests {
  static let policy = """
    rule "support said so"
      when customer.override is not missing
      then follow customer.override, set sampleContentProvided = true

    otherwise refund DECLINE
    """

  @Test(
    arguments: [
      ("GRANT_FULL", RefundPreference.grantFull, true), ("DECLINE", .decline, true),
      ("NO_PREFERENCE", nil, true), ("DO_NOT_RESPOND", nil, false),
    ] as [(String, RefundPreference?, Bool)])
  func theFactsValueIsTheAnswer(override: String, preference: RefundPreference?, sends: Bool)
    throws
  {
    let decision = try Scenario().with("customer.override", override).decide(Self.policy)
    #expect(decision.rule == "support said so")
    #expect(decision.responds == sends)
    if sends {
      #expect(decision.body?.refundPreference == preference)
      #expect(decision.body?.sampleContentProvided == true)
    } else {
      #expect(decision.action == .skip(.policyDoesNotRespond(rule: "support said so")))
    }
  }

  @Test func withoutTheFactTheNextRuleDecides() throws {
    let decision = try Scenario().decide(Self.policy)
    #expect(decision.rule == "otherwise")
    #expect(decision.body?.refundPreference == .decline)
  }

  @Test func aFollowedGrantProratedIsHeldToApplesRules() throws {
    let decision = try Scenario().with("customer.override", "GRANT_PRORATED")
      .with("usage.consumed", "40%").decide(Self.policy)
    #expect(decision.body?.refundPreference == .grantProrated)
    #expect(decision.body?.consumptionPercentage == 40_000)
  }

  @Test(arguments: [
    (
      "rule \"r\" when reason == LEGAL then follow customer.override",
      DiagnosticID.followUnguarded
    ),
    ("otherwise follow customer.override", .followUnguarded),
    ("rule \"r\" when true then follow usage.consumed", .followNotAnswer),
    ("rule \"r\" when reason is not missing then follow reason", .followNotAnswer),
    (
      "rule \"r\" when customer.override is not missing then follow customer.overide",
      .unknownFact
    ),
    (
      "rule \"r\" when customer.override is not missing then follow customer.override, refund DECLINE",
      .conflictingActions
    ),
  ])
  func aFollowThatCannotAlwaysAnswerIsAnError(policy: String, id: DiagnosticID) {
    let loaded = PolicyLoader.load(
      SourceFile(path: "test.policy", text: policy), schema: FactSchema.standard.policySchema)
    #expect(
      loaded.diagnostics.filter(\.isError).map(\.id) == [id], "\(loaded.renderedDiagnostics())")
  }

  @Test func aGuardThroughALetCounts() throws {
    let decision = try Scenario().with("customer.override", "GRANT_FULL").decide(
      """
      let support = customer.override is not missing
      rule "r" when support and reason != LEGAL then follow customer.override
      otherwise share data only
      """)
    #expect(decision.body?.refundPreference == .grantFull)
  }
}
