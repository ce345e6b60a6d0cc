import Foundation
import ReckonAppStore
import Testing

@testable import ReckonEngine

/// A policy's `hold` clause holds the webhook's reply for review, whatever rule decided it, and
/// the decision records which hold.
struct HoldClauseWebhookTests {
  static let policy = """
    hold "light use"
      when usage.consumed < 50%

    rule "heavy use"
      when usage.consumed >= 50%
      then refund DECLINE

    otherwise refund GRANT_FULL
    """

  @Test func aHoldClauseHoldsTheReplyAndNamesItself() async throws {
    let fixture = try WebhookFixture(policy: .text(name: "held.policy", Self.policy))
    let answer = await fixture.service.answer(body: try fixture.body())
    #expect(answer.verdict == .decided)
    let fields = WebhookFixture.fields(answer)
    #expect(fields["action"] == "hold")
    #expect(fields["rule"] == "otherwise")
    #expect(fields["reason"] == "held by hold \"light use\"")
    let entry = try #require(try fixture.store.entries().first)
    guard case .held = entry.state else {
      Issue.record("not held: \(entry.state)")
      return
    }
    #expect(
      String(decoding: entry.body, as: UTF8.self).contains(#""refundPreference":"GRANT_FULL""#))
  }
}
