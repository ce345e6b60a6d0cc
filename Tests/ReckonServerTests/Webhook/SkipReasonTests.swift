import Foundation
import ReckonEngine
import Testing

/// A skip says why nothing is sent: the rule that matched may grant a refund and be overruled by
/// a safety gate, so the rule alone makes the decision look wrong.
@Suite(.serialized) struct SkipReasonTests {
  static let policy = """
    policy "grants"
    rule "we failed to deliver"
      when true
      then refund GRANT_FULL
    """
  static let reason = "no reply: the customer has not consented (customer.consented is false)"

  @Test func aSkipWithoutConsentGivesItsReasonInTheAnswerAndTheDecidedEvent() async throws {
    let fixture = try ServerFixture(
      policy: .text(name: "grants.policy", Self.policy), facts: FixedFacts(consented: false))
    let (status, answer) = try await fixture.post(try fixture.body())
    await fixture.stop()

    #expect(status == 200)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: String])
    #expect(object["action"] == "skip", "\(answer)")
    #expect(object["rule"] == "we failed to deliver", "\(answer)")
    #expect(object["reason"] == Self.reason, "\(answer)")
    let decided = try #require(
      fixture.logLines.all.lazy.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { $0["event"] as? String == "decided" }, "\(fixture.logLines.all)")
    #expect(decided["reason"] as? String == Self.reason, "\(decided)")
    #expect(
      (decided["message"] as? String)?.contains(
        "decided skip by rule 'we failed to deliver' (\(Self.reason))")
        == true, "\(decided)")
  }

  @Test func aDecisionThatSendsHasNoReason() async throws {
    let fixture = try ServerFixture()
    let (status, answer) = try await fixture.post(try fixture.body())
    await fixture.stop()

    #expect(status == 200)
    #expect(!answer.contains("reason"), "\(answer)")
  }
}
