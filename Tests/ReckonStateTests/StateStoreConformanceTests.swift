import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import Testing

/// What every state backend must do, whatever it keeps its state in: record each notification
/// once, decide each request once, move outbox entries through their states without losing a
/// write, and share holds and retries between the senders that read it.
@Suite struct StateStoreConformanceTests {
  typealias Fixture = StateRecordsFixture

  @Test(arguments: StateBackend.all)
  func aNotificationIsRecordedOnceWhateverTheCopies(_ backend: StateBackend) throws {
    let store = try backend.make()
    let record = Fixture.notification("11111111-1111-1111-1111-111111111111")
    let first = try store.recordNotification(record)
    let again = try store.recordNotification(record)
    #expect(first == .recorded(requestId: first.requestId))
    #expect(again == .duplicate(requestId: first.requestId))
    #expect(try store.hasNotification(uuid: record.notificationUUID))
    #expect(try !store.hasNotification(uuid: UUID().uuidString))
    #expect(
      try store.recordedNotification(requestId: first.requestId)?.rawNotification
        == record.rawNotification)
  }

  @Test(arguments: StateBackend.all)
  func aRequestIsDecidedOnceAndItsReplyEnqueuedWithIt(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    #expect(try !store.hasDecision(requestId: request))
    let first = try store.recordDecision(
      Fixture.decision(), requestId: request, enqueue: Fixture.enqueue())
    let second = try store.recordDecision(
      Fixture.decision(), requestId: request, enqueue: Fixture.enqueue())
    #expect(!first.alreadyDecided)
    #expect(second.alreadyDecided)
    #expect(second.decisionId == first.decisionId)
    #expect(second.entryId == first.entryId)
    #expect(try store.decisionCount(requestId: request) == 1)
    #expect(try store.entryCount(states: []) == 1)
    #expect(try store.decision(id: first.decisionId)?.rule == "delivered")
  }

  @Test(arguments: StateBackend.all)
  func anEntryMovesFromPendingToSentWithItsAttempt(_ backend: StateBackend) throws {
    let store = try backend.make()
    var entry = try Fixture.enqueued(in: store)
    let now = Fixture.start.addingTimeInterval(1)
    #expect(entry.state == .pending(notBefore: Fixture.start))
    #expect(try store.dueEntries(now: now, limit: 10).map(\.id) == [entry.id])
    entry.state = .sending(since: now)
    try store.save(&entry, attempt: nil, now: now)
    #expect(try store.dueEntries(now: now, limit: 10).isEmpty)
    entry.state = .sent(at: now)
    let attempt = DeliveryAttempt(
      entryId: entry.id, startedAt: now, finishedAt: now, httpStatus: 202, errorCode: nil,
      errorMessage: nil, result: "sent")
    try store.save(&entry, attempt: attempt, now: now)
    #expect(try store.entry(id: entry.id).state == .sent(at: now))
    #expect(try store.attempts(entryId: entry.id).map(\.httpStatus) == [202])
    #expect(try store.entryCount(states: ["sent"]) == 1)
    #expect(try store.nextWake() == nil)
  }

  /// Two writers that read the same entry: the second save is refused, never lost silently.
  @Test(arguments: StateBackend.all)
  func aSaveOverAnotherWritersChangeIsRefused(_ backend: StateBackend) throws {
    let store = try backend.make()
    let original = try Fixture.enqueued(in: store)
    let now = Fixture.start.addingTimeInterval(1)
    var first = original
    var second = original
    first.state = .sending(since: now)
    try store.save(&first, attempt: nil, now: now)
    second.state = .dropped(at: now)
    #expect(throws: StateError.changedConcurrently(entry: original.id)) {
      try store.save(&second, attempt: nil, now: now)
    }
    #expect(try store.entry(id: original.id).state == .sending(since: now))
  }

  /// A sender takes the entries of the apps it is configured for alone: another app's are
  /// another sender's, and an instance that claims them keeps them from it.
  @Test(arguments: StateBackend.all)
  func dueEntriesAreThoseOfTheAppsAsked(_ backend: StateBackend) throws {
    let store = try backend.make()
    let ours = try Fixture.enqueued(in: store, transaction: "1")
    let other = AppKey(bundleId: "com.example.other", environment: "Production")
    var record = Fixture.notification(transaction: "2")
    record.bundleId = other.bundleId
    let request = try store.recordNotification(record).requestId
    var enqueue = try Fixture.enqueue(transaction: "2")
    enqueue.app = other
    let theirs = try #require(
      try store.recordDecision(Fixture.decision(), requestId: request, enqueue: enqueue).entryId)
    let now = Fixture.start.addingTimeInterval(1)
    let lapsed = Date.distantPast
    #expect(
      try store.dueEntries(now: now, leaseLapsedBefore: lapsed, limit: 10, apps: [Fixture.appKey])
        .map(\.id) == [ours.id])
    #expect(
      try store.dueEntries(now: now, leaseLapsedBefore: lapsed, limit: 10, apps: [other])
        .map(\.id) == [theirs])
    #expect(
      try store.dueEntries(now: now, leaseLapsedBefore: lapsed, limit: 10, apps: []).isEmpty)
    #expect(
      Set(try store.dueEntries(now: now, leaseLapsedBefore: lapsed, limit: 10, apps: nil).map(\.id))
        == [ours.id, theirs])
    // Another app's entry wakes a sender only at its deadline, when any sender expires it.
    #expect(try store.nextWake(apps: [Fixture.appKey]) == Fixture.start)
    #expect(try store.nextWake(apps: []) == enqueue.deadline)
    let late = enqueue.deadline.addingTimeInterval(1)
    #expect(
      try store.dueEntries(now: late, leaseLapsedBefore: lapsed, limit: 10, apps: [])
        .map(\.id) == [ours.id, theirs])
  }

  @Test(arguments: StateBackend.all)
  func aHeldEntryIsNotDueUntilItsRelease(_ backend: StateBackend) throws {
    let store = try backend.make()
    let entry = try Fixture.enqueued(in: store, hold: true)
    guard case .held(let release) = entry.state else {
      Issue.record("the entry is \(entry.state), not held")
      return
    }
    #expect(try store.dueEntries(now: release.addingTimeInterval(-1), limit: 10).isEmpty)
    #expect(try store.nextWake() == release)
    #expect(try store.dueEntries(now: release, limit: 10).map(\.id) == [entry.id])
  }

  @Test(arguments: StateBackend.all)
  func aPastDecisionIsWrittenWithItsReplyAlreadySent(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    let sentAt = Fixture.start.addingTimeInterval(60)
    let receipt = try store.recordDecision(
      Fixture.decision(), requestId: request, enqueue: Fixture.enqueue(), sentAt: sentAt)
    let entry = try store.entry(id: try #require(receipt.entryId))
    #expect(entry.state == .sent(at: sentAt))
    #expect(entry.lastStatus == 202)
    #expect(try store.dueEntries(now: Fixture.start.addingTimeInterval(3_600), limit: 10).isEmpty)
    #expect(try store.nextWake() == nil)
  }

  @Test(arguments: StateBackend.all)
  func anEntryKeepsTheBodyContextItWasEnqueuedWith(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    let context = ConsumptionValidationContext(
      productType: .consumable, ownershipType: .purchased, isAdvancedCommerce: false)
    let receipt = try store.recordDecision(
      Fixture.decision(), requestId: request, enqueue: Fixture.enqueue(context: context))
    let entry = try store.entry(id: try #require(receipt.entryId))
    #expect(entry.context == context.bodyContext)
    #expect(ConsumptionValidationContext(entry.context) == context)
    #expect(entry.app == Fixture.appKey)
  }

  @Test(arguments: StateBackend.all)
  func pausesAndThrottlesAreKeptPerApp(_ backend: StateBackend) throws {
    let store = try backend.make()
    let app = Fixture.appKey
    let other = AppKey(bundleId: "com.example.other", environment: "Sandbox")
    let until = Fixture.start.addingTimeInterval(600)
    try store.pause(app, until: until, reason: "HTTP 401")
    #expect(try store.pauses() == [AppPause(app: app, until: until, reason: "HTTP 401")])
    try store.resume(app)
    #expect(try store.pauses().filter { $0.until > Fixture.start }.isEmpty)
    try store.throttle(other, until: until, now: Fixture.start)
    #expect(try store.throttles(now: Fixture.start) == [other: until])
    #expect(try store.throttles(now: until.addingTimeInterval(1)).isEmpty)
  }

  @Test(arguments: StateBackend.all)
  func anUndecidedRequestIsRetriedWhenItsWaitIsOver(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    let later = Fixture.start.addingTimeInterval(60)
    #expect(
      try store.undecidedRequests(before: later, now: later, limit: 10).map(\.requestId)
        == [request])
    try store.postponeRetry(
      requestId: request, until: later.addingTimeInterval(60), reason: "facts timed out")
    #expect(try store.undecidedRequests(before: later, now: later, limit: 10).isEmpty)
    try store.makeRetriesDue()
    #expect(try store.undecidedRequests(before: later, now: later, limit: 10).count == 1)
    _ = try store.recordDecision(Fixture.decision(), requestId: request, enqueue: nil)
    #expect(try store.undecidedRequests(before: later, now: later, limit: 10).isEmpty)
  }

  @Test(arguments: StateBackend.all)
  func aStoreOutcomeAttachesToTheRequestItAnswers(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification(transaction: "777"))
      .requestId
    let attached = try store.attachOutcome(
      .refund, notificationUUID: UUID().uuidString, transactionId: "777", app: Fixture.appKey,
      originalTransactionId: "900", appAccountToken: nil,
      occurredAt: Fixture.start.addingTimeInterval(3_600))
    #expect(attached == request)
    #expect(try store.outcomes(requestId: request) == [.refund])
  }

  /// Many writers at once, as several webhook threads (or instances) record and decide: every
  /// notification is recorded once and every request decided once.
  @Test(arguments: StateBackend.all)
  func concurrentWritersLoseNothingAndDoubleNothing(_ backend: StateBackend) async throws {
    let store = try backend.make()
    let uuids = (0..<20).map { _ in UUID().uuidString }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, uuid) in uuids.enumerated() {
        for _ in 0..<2 {
          group.addTask {
            let record = Fixture.notification(uuid, transaction: "\(5_000 + index)")
            let request = try store.recordNotification(record).requestId
            _ = try store.recordDecision(
              Fixture.decision(), requestId: request,
              enqueue: Fixture.enqueue(transaction: "\(5_000 + index)"))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try store.entryCount(states: []) == uuids.count)
    for uuid in uuids { #expect(try store.hasNotification(uuid: uuid)) }
  }
}
