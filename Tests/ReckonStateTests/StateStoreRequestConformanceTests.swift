import Foundation
import ReckonAppStore
import ReckonState
import Testing

/// How every backend tells one refund request from another: Apple sends one request several
/// times under new UUIDs within its window, and a request after the window, or after Apple's
/// verdict, is a new one.
@Suite struct StateStoreRequestConformanceTests {
  typealias Fixture = StateRecordsFixture

  /// A second CONSUMPTION_REQUEST `after` seconds after the first, and whether it repeats it.
  struct Second: CustomTestStringConvertible, Sendable {
    var after: TimeInterval
    var transaction = "1000"
    var repeats: Bool
    var testDescription: String { "\(transaction) after \(Int(after)) s" }
  }

  static let seconds = [
    Second(after: 60, repeats: true), Second(after: 12 * 3_600 - 1, repeats: true),
    Second(after: 12 * 3_600, repeats: false),
    Second(after: 60, transaction: "1001", repeats: false),
  ]

  @Test(arguments: StateBackend.all, seconds)
  func aRequestWithinTheWindowOfAnOpenOneRepeatsIt(_ backend: StateBackend, _ second: Second)
    throws
  {
    let store = try backend.make()
    let first = try store.recordNotification(Fixture.notification()).requestId
    let result = try store.recordNotification(
      Fixture.notification(
        transaction: second.transaction, at: Fixture.start.addingTimeInterval(second.after)))
    #expect(result.requestId != first)
    #expect(
      result
        == (second.repeats
          ? .repeated(requestId: result.requestId, of: first)
          : .recorded(requestId: result.requestId)))
  }

  /// An outcome attached to the open request, and whether it closes it.
  struct Verdict: CustomTestStringConvertible, Sendable {
    var outcome: OutcomeType
    var closes: Bool
    var testDescription: String { outcome.rawValue }
  }

  static let verdicts = [
    Verdict(outcome: .refundDeclined, closes: true),
    Verdict(outcome: .refundReversed, closes: false),
    Verdict(outcome: .seatsRefunded, closes: true),
    Verdict(outcome: .seatsUnclaimed, closes: false),
  ]

  @Test(arguments: StateBackend.all, verdicts)
  func aVerdictOnTheOpenRequestMakesTheNextOneNew(_ backend: StateBackend, _ verdict: Verdict)
    throws
  {
    let (outcome, closes) = (verdict.outcome, verdict.closes)
    let store = try backend.make()
    let first = try store.recordNotification(Fixture.notification()).requestId
    _ = try store.attachOutcome(
      outcome, notificationUUID: UUID().uuidString, transactionId: "1000", app: Fixture.appKey,
      originalTransactionId: nil, appAccountToken: nil,
      occurredAt: Fixture.start.addingTimeInterval(3_600))
    let again = try store.recordNotification(
      Fixture.notification(at: Fixture.start.addingTimeInterval(7_200)))
    #expect(
      again
        == (closes
          ? .recorded(requestId: again.requestId)
          : .repeated(requestId: again.requestId, of: first)))
    let later = Fixture.start.addingTimeInterval(7_300)
    #expect(
      try store.requestCount(transactionId: "1000", app: nil, before: later) == (closes ? 2 : 1))
  }

  @Test(arguments: StateBackend.all)
  func aRequestWhoseDeadlinePassedUndecidedIsReportedOnce(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    let after = Fixture.start.addingTimeInterval(12 * 3_600 + 60)
    #expect(try store.lapsedRequests(now: Fixture.start.addingTimeInterval(60)).isEmpty)
    #expect(try store.lapsedRequests(now: after).map(\.requestId) == [request])
    try store.markLapsed(requestId: request, at: after)
    #expect(try store.lapsedRequests(now: after).isEmpty)
  }

  @Test(arguments: StateBackend.all)
  func theGaugesCountTheOutboxAndTheUndecided(_ backend: StateBackend) throws {
    let store = try backend.make()
    _ = try Fixture.enqueued(in: store, transaction: "1")
    _ = try Fixture.enqueued(in: store, transaction: "2", hold: true)
    _ = try store.recordNotification(Fixture.notification(transaction: "3"))
    let gauges = try store.gauges(now: Fixture.start.addingTimeInterval(60))
    #expect(gauges.outboxDepth["pending"] == 1)
    #expect(gauges.outboxDepth["held"] == 1)
    #expect(gauges.undecided == 1)
    #expect(gauges.overdue == 0)
    #expect(gauges.oldestDueSince == Fixture.start, "the pending entry is due, the held one not")
    #expect(gauges.dueLag(now: Fixture.start.addingTimeInterval(60)) == 60)
    #expect(try store.gauges(now: Fixture.start.addingTimeInterval(-1)).oldestDueSince == nil)
    #expect(try store.gauges(now: Fixture.start.addingTimeInterval(13 * 3_600)).overdue == 2)
    #expect(try store.outboxDepth()["pending"] == 1)
    // A pause any instance put in force is a gauge while it lasts.
    #expect(gauges.paused.isEmpty)
    try store.pause(Fixture.appKey, until: Fixture.start.addingTimeInterval(300), reason: "401")
    #expect(try store.gauges(now: Fixture.start.addingTimeInterval(60)).paused == [Fixture.appKey])
    #expect(try store.gauges(now: Fixture.start.addingTimeInterval(301)).paused.isEmpty)
  }

  /// Unfinished entries first, the most urgent first; finished ones after, the latest first.
  @Test(arguments: StateBackend.all)
  func entriesAreListedMostUrgentFirst(_ backend: StateBackend) throws {
    let store = try backend.make()
    var sent = try Fixture.enqueued(in: store, transaction: "1")
    sent.state = .sent(at: Fixture.start.addingTimeInterval(10))
    try store.save(&sent, attempt: nil, now: Fixture.start.addingTimeInterval(10))
    let late = try Fixture.enqueued(
      in: store, transaction: "2", at: Fixture.start.addingTimeInterval(600))
    let soon = try Fixture.enqueued(
      in: store, transaction: "3", at: Fixture.start.addingTimeInterval(300))
    #expect(try store.entries(states: [], limit: 10).map(\.id) == [soon.id, late.id, sent.id])
    #expect(try store.entries(states: ["sent"], limit: 10).map(\.id) == [sent.id])
    #expect(try store.entries(states: [], limit: 1).map(\.id) == [soon.id])
    #expect(try store.entryCount(states: ["pending"]) == 2)
  }
}

/// What pruning removes on every backend: what was finished before the cutoff, with all that
/// belongs to it, never a reply still waiting, and never the last seven days.
@Suite struct StateStorePruneConformanceTests {
  typealias Fixture = StateRecordsFixture

  @Test(arguments: StateBackend.all)
  func pruningRemovesWhatWasFinishedBeforeTheCutoffAndKeepsWhatWaits(_ backend: StateBackend)
    throws
  {
    let store = try backend.make()
    var sent = try Fixture.enqueued(in: store, transaction: "1")
    sent.state = .sent(at: Fixture.start.addingTimeInterval(10))
    try store.save(&sent, attempt: nil, now: Fixture.start.addingTimeInterval(10))
    let waiting = try Fixture.enqueued(in: store, transaction: "2")
    let recent = try Fixture.enqueued(
      in: store, transaction: "3", at: Fixture.start.addingTimeInterval(40 * 86_400))
    let now = Fixture.start.addingTimeInterval(50 * 86_400)
    let cutoff = Fixture.start.addingTimeInterval(30 * 86_400)
    let counted = try store.prune(before: cutoff, now: now, dryRun: true, stop: { false })
    #expect(try store.entryCount(states: []) == 3, "a dry run changes nothing")
    let removed = try store.prune(before: cutoff, now: now, dryRun: false, stop: { false })
    #expect(removed == counted)
    #expect(removed.notifications == 1)
    #expect(removed.decisions == 1)
    #expect(removed.entries == 1)
    #expect(try Set(store.entries(states: [], limit: 10).map(\.id)) == [waiting.id, recent.id])
    #expect(throws: StateError.self) {
      try store.prune(
        before: now.addingTimeInterval(-86_400), now: now, dryRun: false, stop: { false })
    }
  }

  @Test(arguments: StateBackend.all)
  func aCustomersRefundsAreCountedByTheirToken(_ backend: StateBackend) throws {
    let store = try backend.make()
    _ = try store.recordNotification(Fixture.notification(transaction: "1"))
    _ = try store.attachOutcome(
      .refund, notificationUUID: UUID().uuidString, transactionId: "1", app: Fixture.appKey,
      originalTransactionId: "900", appAccountToken: "7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B",
      occurredAt: Fixture.start.addingTimeInterval(60))
    let later = Fixture.start.addingTimeInterval(120)
    #expect(
      try store.refundCount(
        customer: .appAccountToken("7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"), app: nil, before: later)
        == 1)
    #expect(
      try store.refundCount(customer: .originalTransactionId("900"), app: nil, before: later) == 1)
    #expect(
      try store.refundCount(
        customer: .appAccountToken("7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"), app: nil,
        before: Fixture.start)
        == 0)
    // Any other account id (Google's obfuscated one) is the app's own text, case and all.
    _ = try store.attachOutcome(
      .refund, notificationUUID: UUID().uuidString, transactionId: "1", app: Fixture.appKey,
      originalTransactionId: nil, appAccountToken: "Acct-9",
      occurredAt: Fixture.start.addingTimeInterval(60))
    #expect(
      try store.refundCount(customer: .appAccountToken("Acct-9"), app: nil, before: later) == 1)
    #expect(
      try store.refundCount(customer: .appAccountToken("acct-9"), app: nil, before: later) == 0)
  }

  /// A refund of some seats gave the customer money back: it counts among their refunds.
  @Test(arguments: StateBackend.all)
  func aSeatRefundCountsAmongTheCustomersRefunds(_ backend: StateBackend) throws {
    let store = try backend.make()
    _ = try store.recordNotification(Fixture.notification(transaction: "1"))
    for outcome in [OutcomeType.seatsRefunded, .seatsUnclaimed, .refundDeclined] {
      _ = try store.attachOutcome(
        outcome, notificationUUID: UUID().uuidString, transactionId: "1", app: Fixture.appKey,
        originalTransactionId: "900", appAccountToken: "abc",
        occurredAt: Fixture.start.addingTimeInterval(60))
    }
    let later = Fixture.start.addingTimeInterval(120)
    #expect(try store.refundCount(customer: .appAccountToken("abc"), app: nil, before: later) == 1)
  }

  @Test(arguments: StateBackend.all)
  func theHistoryADryRunReadsHoldsTheRequestsOfTheWindow(_ backend: StateBackend) throws {
    let store = try backend.make()
    _ = try Fixture.enqueued(in: store, transaction: "1")
    _ = try store.recordNotification(
      Fixture.notification(transaction: "2", at: Fixture.start.addingTimeInterval(86_400)))
    let all = try store.storedRequests(since: nil, until: nil)
    #expect(all.count == 2)
    // Each as recorded, under its notification's UUID (a Google review's holds none itself).
    #expect(
      Set(all.compactMap(\.notificationUUID)).count == 2
        && all.allSatisfy { $0.notificationUUID?.isEmpty == false }, "\(all)")
    #expect(
      try store.storedRequests(since: Fixture.start.addingTimeInterval(60), until: nil).count == 1)
    #expect(try store.decidedOutcomes(since: nil, until: nil).map(\.rule) == ["delivered"])
    let span = try store.requestSpan(decided: false)
    #expect(span.count == 2)
    #expect(span.first == Fixture.start)
    #expect(try store.requestSpan(decided: true).count == 1)
  }
}

extension StateStoreRequestConformanceTests {
  /// A Google Play review, as the Google pipeline records one.
  static func googleReview(order: String = "GPA.1", at date: Date = Fixture.start)
    -> NotificationRecord
  {
    NotificationRecord(
      notificationUUID: "google:\(UUID().uuidString)", notificationType: "PENDING_REFUND_REVIEW",
      transactionId: order, originalTransactionId: nil, appAccountToken: "acct",
      bundleId: "com.example.play", environment: "GooglePlay", receivedAt: date,
      rawNotification: Data("{}".utf8))
  }

  @Test(arguments: StateBackend.all)
  func aGoogleReviewWaitsUndecidedAndLapsesAfterItsOwnDay(_ backend: StateBackend) throws {
    let store = try backend.make()
    let apple = try store.recordNotification(Fixture.notification()).requestId
    let google = try store.recordNotification(Self.googleReview()).requestId
    let soon = Fixture.start.addingTimeInterval(60)
    let undecided = try store.undecidedRequests(before: soon, now: soon)
    #expect(Set(undecided.map(\.requestId)) == [apple, google])
    // Each says which store's pipeline decides it.
    #expect(undecided.first { $0.requestId == google }?.environment == "GooglePlay")
    #expect(undecided.first { $0.requestId == apple }?.environment == "Production")
    #expect(undecided.first { $0.requestId == google }?.rawNotification == Data("{}".utf8))
    // Apple's 12 hours have passed, Google's 24 have not.
    let halfDay = Fixture.start.addingTimeInterval(13 * 3_600)
    #expect(try store.lapsedRequests(now: halfDay).map(\.requestId) == [apple])
    let day = Fixture.start.addingTimeInterval(24 * 3_600 + 60)
    #expect(Set(try store.lapsedRequests(now: day).map(\.requestId)) == [apple, google])
  }

  @Test(arguments: StateBackend.all)
  func aGoogleVoidedPurchaseIsNoRequest(_ backend: StateBackend) throws {
    let store = try backend.make()
    var voided = Self.googleReview()
    voided.notificationType = "VOIDED_PURCHASE"
    _ = try store.recordNotification(voided)
    let soon = Fixture.start.addingTimeInterval(60)
    #expect(try store.undecidedRequests(before: soon, now: soon).isEmpty)
  }
}

extension StateStoreRequestConformanceTests {
  @Test(arguments: StateBackend.all)
  func anOutcomeThatNamesNoCustomerCountsForTheCustomerOfItsRequest(_ backend: StateBackend)
    throws
  {
    let store = try backend.make()
    _ = try store.recordNotification(Self.googleReview(order: "GPA.9"))
    let app = AppKey(bundleId: "com.example.play", environment: "GooglePlay")
    _ = try store.attachOutcome(
      .refund, notificationUUID: "google:voided-1", transactionId: "GPA.9", app: app,
      originalTransactionId: "purchase-token", appAccountToken: nil,
      occurredAt: Fixture.start.addingTimeInterval(3_600))
    let later = Fixture.start.addingTimeInterval(7_200)
    #expect(try store.refundCount(customer: .appAccountToken("acct"), app: app, before: later) == 1)
  }
}
