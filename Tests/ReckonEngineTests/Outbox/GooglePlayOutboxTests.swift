import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonStandIn
import ReckonState
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Google Play records only the first answer to a review: the outbox sends one, tries again
/// only when Google surely recorded nothing, and never resends one Google may have recorded.
@Suite struct GooglePlayOutboxTests {
  let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down))

  struct Harness {
    let world: GooglePlayWorld
    let store: SQLiteStateStore
    let clock: SimulatedClock
    let events = SenderEventLog()
    let sender: OutboxSender

    init(start: Date) throws {
      world = try GooglePlayWorld()
      store = try OutboxFixture.temporaryStore()
      clock = SimulatedClock(start: start)
      sender = OutboxSender(
        store: store, sender: Unused(), configuration: try SenderSettings.fast(), clock: clock,
        random: { 0 }, maximumConcurrentSends: 1, consentCheck: nil,
        answerSender: world.client, events: events.append)
    }

    func state(_ id: Int64) throws -> OutboxState { try store.entry(id: id).state }

    var reviewCalls: [GooglePlayStandInCall] {
      world.standIn.calls.filter { if case .reviewRefund = $0.endpoint { true } else { false } }
    }
  }

  /// Apple's sender, which no Google entry may reach.
  struct Unused: ConsumptionSender {
    func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp)
      async -> ConsumptionDelivery
    { .networkError("an Apple send for a Google entry") }
  }

  /// Notes the time each answer is to be given up by, and records it.
  final class GiveUpTimes: ReviewRefundSender, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Date?] = []
    var deadlines: [Date?] { lock.withLock { stored } }

    func send(
      _ body: ValidatedReviewRefund, packageName: String, orderId: String, before deadline: Date?
    ) async -> ReviewRefundDelivery {
      lock.withLock { stored.append(deadline) }
      return .recorded
    }
  }

  /// An answer cut off might have been recorded and is never sent again, so it goes by the
  /// review's deadline alone, not by the send lease an App Store send is cut off before.
  @Test func anAnswerIsGivenTheReviewsDeadlineNotTheLeasesCutOff() async throws {
    let store = try OutboxFixture.temporaryStore()
    let answers = GiveUpTimes()
    let sender = OutboxSender(
      store: store, sender: Unused(), configuration: try SenderSettings.fast(),
      clock: SimulatedClock(start: start), sendLeaseSeconds: 10, consentCheck: nil,
      answerSender: answers)
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: store, at: start, orderId: "GPA.1", packageName: GooglePlayWorld.packageName)
    #expect(try await sender.drainDue().sent == 1)
    #expect(answers.deadlines == [try store.entry(id: id).deadline])
  }

  @Test func aDueAnswerIsSentOnceAndRecordedByGoogle() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    let summary = try await h.sender.drainDue()
    #expect(summary.sent == 1)
    #expect(try h.state(id).name == "sent")
    let call = try #require(h.reviewCalls.first)
    #expect(call.recorded)
    #expect(call.body == OutboxFixture.answer)
    #expect(h.world.standIn.answer(for: review.orderId)?.refundPreference == .decline)
    _ = try await h.sender.drainDue()
    #expect(h.reviewCalls.count == 1)
    #expect(try h.store.attempts(entryId: id).map(\.httpStatus) == [200])
  }

  @Test func anAnswerGoogleMayHaveRecordedIsNotSentAgain() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    h.world.standIn.inject(.recordThenFail(status: 500))
    let summary = try await h.sender.drainDue()
    #expect(summary.failed == 1)
    guard case .failed(_, let reason) = try h.state(id) else {
      Issue.record("not failed: \(try h.state(id))")
      return
    }
    #expect(reason.hasPrefix("uncertain: HTTP 500"))
    h.clock.advance(to: start.addingTimeInterval(3_600))
    _ = try await h.sender.drainDue()
    #expect(h.reviewCalls.count == 1)
  }

  @Test func aCallGoogleTurnedAwayIsTriedAgainAfterTheBackoff() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    h.world.standIn.inject(.refuse(status: 503))
    _ = try await h.sender.drainDue()
    guard case .pending(let notBefore) = try h.state(id) else {
      Issue.record("not pending: \(try h.state(id))")
      return
    }
    #expect(notBefore > start)
    h.clock.advance(to: notBefore)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(h.reviewCalls.map(\.status) == [503, 200])
    #expect(try h.store.attempts(entryId: id).map(\.result) == ["retry", "sent"])
  }

  @Test func aSendInterruptedByACrashFailsAsUncertainAndIsNotResent() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    var entry = try h.store.entry(id: id)
    // The sender saved it `sending`, then the process died.
    guard case .sendAnswer = entry.poll(now: start) else {
      Issue.record("not sent")
      return
    }
    try h.store.save(&entry, now: start)
    h.clock.advance(to: start.addingTimeInterval(600))
    let summary = try await h.sender.drainDue()
    #expect(summary.failed == 1)
    #expect(h.reviewCalls.isEmpty)
    guard case .failed(_, let reason) = try h.state(id) else {
      Issue.record("not failed")
      return
    }
    #expect(reason.contains("the process stopped during the send"))
    #expect(reason.contains("reckon queue retry \(id)"))
    // The log says so from the start, rather than promise a send again.
    #expect(
      h.events.lines.contains(
        "warning: 1 Google Play answer(s) interrupted by a crash may have reached Google: "
          + "failed, not sent again on their own"), "\(h.events.lines)")
  }

  @Test func anOperatorRetryOfAnUncertainAnswerSendsTheSameBytes() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    h.world.standIn.inject(.recordThenFail(status: 502))
    _ = try await h.sender.drainDue()
    var entry = try h.store.entry(id: id)
    try entry.retry(now: h.clock.now())
    try h.store.save(&entry, now: h.clock.now())
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(h.reviewCalls.map(\.body) == [OutboxFixture.answer, OutboxFixture.answer])
    #expect(h.reviewCalls.map(\.recorded) == [true, false])
  }

  @Test func aGoogleAnswerCannotBeEditedByAnOperator() throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let id = try OutboxFixture.enqueueGoogleAnswer(in: h.store, at: start, hold: true)
    var entry = try h.store.entry(id: id)
    #expect(throws: OutboxCommandRefused.self) {
      try entry.edit(body: OutboxFixture.answer, now: start)
    }
  }

  @Test func aHeldAnswerWaitsUntilAnHourBeforeGooglesDeadline() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    let review = h.world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, orderId: review.orderId, packageName: GooglePlayWorld.packageName,
      hold: true)
    _ = try await h.sender.drainDue()
    #expect(h.reviewCalls.isEmpty)
    h.clock.advance(to: start.addingTimeInterval(23 * 3_600))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(h.reviewCalls.count == 1)
  }

  @Test func aRejectedAnswerFailsForGood() async throws {
    let h = try Harness(start: start)
    defer { h.world.standIn.shutdown() }
    // No review opened: Google does not know the order.
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: h.store, at: start, packageName: GooglePlayWorld.packageName)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id) == .failed(at: start, reason: "HTTP 404 NOT_FOUND: Order not found."))
  }
}

extension GooglePlayOutboxTests {
  /// `reckon send`'s sender, for a configuration that answers Google Play alone: no App Store
  /// key is needed, and the answers go.
  @Test func theConfiguredSenderAnswersGooglePlayWithoutAnAppStoreKey() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let json = """
      {"apps": [{"store": "googlePlay", "packageName": "\(GooglePlayWorld.packageName)", "policy": "p.policy"}],
       "googlePlay": {"push": {"audience": "a", "serviceAccountEmail": "p@x"}}}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    let store = try OutboxFixture.temporaryStore()
    let review = world.openReview()
    let id = try OutboxFixture.enqueueGoogleAnswer(
      in: store, at: Date(), orderId: review.orderId, packageName: GooglePlayWorld.packageName)
    let sender = try SenderSetup.sender(
      configuration, store: store, client: nil, answerSender: world.client, events: { _ in })
    #expect(try await sender.drainDue().sent == 1)
    #expect(try store.entry(id: id).state.name == "sent")
    #expect(world.standIn.answer(for: review.orderId) != nil)
  }
}
