import Foundation
import ReckonAppStore
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// `SQLiteStateStore.prune`: old requests go with everything recorded about them; a reply still
/// waiting, a recent request and anything Apple may still send again stay.
@Suite struct StatePruneTests {
  static let now = TestState.start.addingTimeInterval(60 * 86_400)
  static let cutoff = now.addingTimeInterval(-30 * 86_400)

  /// Records a request at `date` whose reply Apple accepted (one attempt) and refunded.
  @discardableResult
  static func answered(in store: SQLiteStateStore, transaction: String, at date: Date) throws
    -> OutboxEntry
  {
    var entry = try TestState.enqueued(in: store, transaction: transaction, at: date)
    _ = entry.poll(now: date)
    _ = entry.delivered(
      .answered(.init(status: 202)), now: date,
      backoff: Backoff(initial: 30, maximum: 60, random: { 0 }))
    try store.save(
      &entry,
      attempt: DeliveryAttempt(
        entryId: entry.id, startedAt: date, finishedAt: date, httpStatus: 202, errorCode: nil,
        errorMessage: nil, result: "sent"), now: date)
    try store.attachOutcome(
      .refund, notificationUUID: UUID().uuidString, transactionId: transaction,
      app: TestState.app.key, occurredAt: date.addingTimeInterval(86_400))
    return entry
  }

  static func count(_ table: String, in store: SQLiteStateStore) throws -> Int64 {
    try store.connection.query("SELECT count(*) FROM \(table)").first?.int(0) ?? -1
  }

  @Test func anOldRequestGoesWithItsDecisionEntryAttemptsAndOutcomesAndARecentOneStays() throws {
    let store = try TestState.store()
    let old = try Self.answered(in: store, transaction: "1", at: TestState.start)
    let recent = try Self.answered(
      in: store, transaction: "2", at: Self.now.addingTimeInterval(-86_400))
    let counts = try store.prune(before: Self.cutoff, now: Self.now)
    #expect(
      counts
        == PruneCounts(notifications: 1, decisions: 1, entries: 1, attempts: 1, outcomes: 1))
    #expect(throws: StateError.notFound(what: "outbox entry", id: old.id)) {
      try store.entry(id: old.id)
    }
    #expect(try store.entry(id: recent.id).state.name == "sent")
    #expect(try store.attempts(entryId: recent.id).count == 1)
    for table in ["requests", "decisions", "outbox", "attempts", "outcomes"] {
      #expect(try Self.count(table, in: store) == 1, "\(table)")
    }
    #expect(try store.connection.query("PRAGMA foreign_key_check").isEmpty)
  }

  @Test(arguments: [false, true])
  func aRequestWhoseReplyStillWaitsIsKeptWhateverItsAge(held: Bool) throws {
    let store = try TestState.store()
    let entry = try TestState.enqueued(
      in: store, transaction: "1", at: TestState.start, hold: held)
    #expect(try store.prune(before: Self.cutoff, now: Self.now).isEmpty)
    #expect(try store.entry(id: entry.id).state.name == (held ? "held" : "pending"))
  }

  @Test func aRepeatGoesWithTheRequestItRepeats() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(
      TestState.notification(transaction: "1", at: Self.cutoff.addingTimeInterval(-3 * 3_600)))
    let again = try store.recordNotification(
      TestState.notification(transaction: "1", at: Self.cutoff.addingTimeInterval(-3_600)))
    #expect(again == .repeated(requestId: again.requestId, of: first.requestId))
    let counts = try store.prune(before: Self.cutoff, now: Self.now)
    #expect(counts == PruneCounts(notifications: 2))
    #expect(try Self.count("requests", in: store) == 0)
  }

  /// A refund reported lately counts in `history.earlier_refunds`, and a repeat received lately
  /// may still be sent again by Apple: either keeps the request, with all that belongs to it.
  @Test(arguments: ["outcome", "repeat"])
  func aRequestWithAnythingDatedAfterTheCutoffIsKept(what: String) throws {
    let store = try TestState.store()
    let received = Self.cutoff.addingTimeInterval(-3_600)
    let entry = try Self.answered(
      in: store, transaction: "1", at: received.addingTimeInterval(-86_400))
    if what == "outcome" {
      try store.attachOutcome(
        .refundReversed, notificationUUID: UUID().uuidString, transactionId: "1",
        app: TestState.app.key, occurredAt: Self.cutoff)
    } else {
      let open = try store.recordNotification(
        TestState.notification(transaction: "2", at: received))
      let again = try store.recordNotification(
        TestState.notification(transaction: "2", at: Self.cutoff))
      #expect(again == .repeated(requestId: again.requestId, of: open.requestId))
    }
    let removed = try store.prune(before: Self.cutoff, now: Self.now)
    if what == "outcome" {
      #expect(removed.isEmpty)
      #expect(try store.entry(id: entry.id).state.name == "sent")
      #expect(try Self.count("outcomes", in: store) == 2)
    } else {
      // The first request, with nothing since, goes; the repeated one stays with its repeat.
      #expect(
        removed
          == PruneCounts(notifications: 1, decisions: 1, entries: 1, attempts: 1, outcomes: 1))
      #expect(try Self.count("requests", in: store) == 2)
    }
  }

  /// Another process holding the file's lock past the busy timeout stops a prune part-way; the
  /// error says what had gone by then, and pruning again finishes the job.
  @Test func aPruneStoppedPartWaySaysWhatItRemovedAndAnotherRunFinishes() throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    let total = SQLiteStateStore.pruneBatch + 10
    for index in 0..<total {
      _ = try store.recordNotification(
        TestState.notification(
          transaction: "\(index)", at: TestState.start.addingTimeInterval(Double(index))))
    }
    // The second batch's BEGIN fails: a trigger refuses deleting the last rows, so the first
    // transaction commits and the second rolls back, as a lock held too long would make it.
    try store.connection.execute(
      """
      CREATE TEMP TRIGGER refuse_last BEFORE DELETE ON requests
      WHEN old.id > \(SQLiteStateStore.pruneBatch) BEGIN SELECT RAISE(ABORT, 'held elsewhere'); END
      """)
    let error = #expect(throws: StateError.self) {
      try store.prune(before: Self.cutoff, now: Self.now)
    }
    guard case .pruneStopped(let removed, _)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(removed == PruneCounts(notifications: SQLiteStateStore.pruneBatch))
    #expect(error?.description.contains("pruning again goes on from there") == true)
    try store.connection.execute("DROP TRIGGER refuse_last")
    #expect(try store.prune(before: Self.cutoff, now: Self.now) == PruneCounts(notifications: 10))
  }

  @Test func anOutcomeAttachedToNoRequestGoesWhenReportedBeforeTheCutoff() throws {
    let store = try TestState.store()
    for (transaction, date) in [
      ("1", Self.cutoff.addingTimeInterval(-1)), ("2", Self.cutoff.addingTimeInterval(1)),
    ] {
      try store.attachOutcome(
        .refundDeclined, notificationUUID: UUID().uuidString, transactionId: transaction,
        occurredAt: date)
    }
    #expect(try store.prune(before: Self.cutoff, now: Self.now) == PruneCounts(outcomes: 1))
    let left = try store.connection.query("SELECT transaction_id FROM outcomes")
    #expect(left.map { $0.text(0) } == ["2"])
  }

  @Test func aDryRunCountsWhatThePruneThenRemovesAndChangesNothing() throws {
    let store = try TestState.store()
    for index in 0..<5 {
      try Self.answered(
        in: store, transaction: "\(index)",
        at: TestState.start.addingTimeInterval(Double(index) * 10 * 86_400))
    }
    _ = try TestState.enqueued(in: store, transaction: "9", at: TestState.start, hold: true)
    _ = try store.recordNotification(
      TestState.notification(transaction: "0", at: TestState.start.addingTimeInterval(60)))
    let dryRun = try store.prune(before: Self.cutoff, now: Self.now, dryRun: true)
    #expect(try Self.count("requests", in: store) == 7)
    #expect(try store.prune(before: Self.cutoff, now: Self.now) == dryRun)
    #expect(
      dryRun == PruneCounts(notifications: 4, decisions: 3, entries: 3, attempts: 3, outcomes: 3))
    #expect(try store.prune(before: Self.cutoff, now: Self.now, dryRun: true).isEmpty)
  }

  @Test func moreRequestsThanOneBatchAreAllRemoved() throws {
    let store = try TestState.store()
    let total = SQLiteStateStore.pruneBatch * 2 + 7
    for index in 0..<total {
      _ = try store.recordNotification(
        TestState.notification(
          transaction: "\(index)", at: TestState.start.addingTimeInterval(Double(index))))
    }
    let counts = try store.prune(before: Self.cutoff, now: Self.now)
    #expect(counts == PruneCounts(notifications: total))
    #expect(try Self.count("requests", in: store) == 0)
  }

  /// Apple sends a notification it got no 200 for again for up to about six and a half days;
  /// a pruned one would be decided afresh.
  @Test func aCutoffWithinTheLastSevenDaysIsRefusedAndNothingIsRemoved() throws {
    let store = try TestState.store()
    try Self.answered(in: store, transaction: "1", at: Self.now.addingTimeInterval(-3 * 86_400))
    let cutoff = Self.now.addingTimeInterval(-6 * 86_400)
    let latest = Self.now.addingTimeInterval(-StateRetention.shortest)
    #expect(throws: StateError.retentionTooShort(cutoff: cutoff, latest: latest)) {
      try store.prune(before: cutoff, now: Self.now)
    }
    #expect(throws: StateError.retentionTooShort(cutoff: cutoff, latest: latest)) {
      try store.prune(before: cutoff, now: Self.now, dryRun: true)
    }
    #expect(try Self.count("requests", in: store) == 1)
    #expect(try store.prune(before: latest, now: Self.now).isEmpty)
  }

  /// A service stopping asks between transactions: the prune ends there with what it removed.
  @Test func aStopBetweenTransactionsEndsThePruneWithWhatItRemoved() throws {
    let store = try TestState.store()
    for index in 0..<(SQLiteStateStore.pruneBatch + 10) {
      _ = try store.recordNotification(
        TestState.notification(
          transaction: "\(index)", at: TestState.start.addingTimeInterval(Double(index))))
    }
    var asked = 0
    let removed = try store.prune(before: Self.cutoff, now: Self.now) {
      asked += 1
      return asked > 1
    }
    #expect(removed == PruneCounts(notifications: SQLiteStateStore.pruneBatch))
    #expect(try Self.count("requests", in: store) == 10)
  }

  @Test func countsAreWordedWithSeparatorsAndTheirOwnNumber() {
    let counts = PruneCounts(notifications: 1_956, decisions: 1, entries: 2, attempts: 1)
    #expect(
      counts.described == [
        "1,956 notifications", "1 decision", "2 outbox entries", "1 attempt", "0 outcomes",
      ])
    #expect((counts + counts).notifications == 3_912)
  }
}
