import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// Before a reply decided a while ago goes out, consent is read again from the fact sources for
/// the request it answers.
struct GatheredConsentCheckTests {
  @Test func consentIsReadAgainForTheRequestAnEntryAnswers() async throws {
    let fixture = try WebhookFixture()
    #expect(await fixture.service.answer(body: try fixture.body()).status == 200)
    let entry = try #require(try fixture.store.entries().first)
    let check = fixture.service.consentCheck
    #expect(await check.consent(for: entry) == .given)
    fixture.facts.consent(false)
    #expect(await check.consent(for: entry) == .notGiven("customer.consented is now false"))
    fixture.facts.consent(nil)
    #expect(await check.consent(for: entry) == .notGiven("customer.consented is now missing"))
    fixture.facts.consent(true)
    fixture.facts.fail(true)
    guard case .unknown(let reason) = await check.consent(for: entry) else {
      Issue.record("a failing source read as an answer")
      return
    }
    #expect(reason.hasPrefix("customer.consented could not be read"))
  }

  /// A source serving both stores' apps may hold an override in Google Play's words for the
  /// transaction: consent, read again, is what the source says, the other word left out.
  @Test(arguments: [true, false])
  func consentIsReadFromASourceHoldingTheOtherStoresWords(consented: Bool) async throws {
    let fixture = try WebhookFixture()
    #expect(await fixture.service.answer(body: try fixture.body()).status == 200)
    let entry = try #require(try fixture.store.entries().first)
    let file = TestScratch.folder.appendingPathComponent("consent-\(UUID().uuidString).json")
    try Data(
      """
      {"byTransactionId": {"\(entry.transactionId)": {"customer.consented": \(consented),
        "customer.override": "APPROVE"}}}
      """.utf8
    ).write(to: file)
    let source = try JSONFileFactSource(
      name: "shared", path: file.path,
      schema: FactSchema.standard.readingSources(alongside: [.appStore, .googlePlay]))
    let check = GatheredConsentCheck(
      store: fixture.store, verifier: fixture.service.consentCheck.verifier,
      gatherer: FactGatherer(schema: .standard, layers: [.init(source)]))
    #expect(
      await check.consent(for: entry)
        == (consented ? .given : .notGiven("customer.consented is now false")))
  }

  /// A root replaced while replies are queued: the customer's consent was never withdrawn, so
  /// the reply waits (and expires at its deadline) rather than failing as if it had been.
  @Test func aRequestThatNoLongerVerifiesWaitsForTheTrustSettingsToBePutRight() async throws {
    let fixture = try WebhookFixture()
    #expect(await fixture.service.answer(body: try fixture.body()).status == 200)
    let entry = try #require(try fixture.store.entries().first)
    let otherRoot = try WebhookFixture(statePath: fixture.statePath)
    guard case .unknown(let reason) = await otherRoot.service.consentCheck.consent(for: entry)
    else {
      Issue.record("a request that no longer verifies was read as an answer on consent")
      return
    }
    #expect(reason.hasPrefix("the recorded request no longer verifies with the trust settings"))
  }

  @Test func anEntryWhoseRequestIsNotRecordedIsNeverConsentedTo() async throws {
    let fixture = try WebhookFixture()
    #expect(await fixture.service.answer(body: try fixture.body()).status == 200)
    let recorded = try #require(try fixture.store.entries().first)
    let stranger = OutboxEntry(
      id: recorded.id, decisionId: recorded.decisionId, requestId: 9_999, app: recorded.app,
      transactionId: recorded.transactionId, context: recorded.context, body: recorded.body,
      deadline: recorded.deadline, state: recorded.state)
    #expect(
      await fixture.service.consentCheck.consent(for: stranger)
        == .notGiven("request 9999 is not in the state database"))
  }
}
