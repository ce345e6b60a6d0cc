import Foundation
import ReckonAppStore
import Testing

@testable import ReckonEngine

@Suite struct StateStoreTests {
  @Test func newDatabaseIsAtTheNewestSchemaAndReopeningMigratesNothing() throws {
    let path = TestState.temporaryPath()
    let first = try StateStore(path: path)
    #expect(try first.schemaVersion() == StateSchema.migrations.count)
    let second = try StateStore(path: path)
    #expect(try second.schemaVersion() == StateSchema.migrations.count)
  }

  @Test func databaseFromANewerReckonIsRefused() throws {
    let path = TestState.temporaryPath()
    let store = try StateStore(path: path)
    try store.connection.query("INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)")
    let error = #expect(throws: StateDatabaseError.self) { try StateStore(path: path) }
    #expect(error == .newerSchema(path: path, found: 99, known: StateSchema.migrations.count))
  }

  @Test func databaseUsesWriteAheadLogging() throws {
    let store = try TestState.store()
    let mode = try store.connection.query("PRAGMA journal_mode").first?.text(0)
    #expect(mode == "wal")
  }

  @Test func aNotificationIsRecordedOnceByItsUUID() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification("uuid-1"))
    let again = try store.recordNotification(TestState.notification("uuid-1"))
    guard case .recorded(let id) = first else {
      Issue.record("first was not recorded")
      return
    }
    #expect(again == .duplicate(requestId: id))
  }

  @Test func aDecisionAndItsEntryAreWrittenTogether() throws {
    let store = try TestState.store()
    let entry = try TestState.enqueued(in: store)
    #expect(entry.state == .pending(notBefore: TestState.start))
    #expect(entry.deadline == TestState.start.addingTimeInterval(12 * 3_600))
    #expect(entry.body == TestState.validBody)
  }

  @Test func anInvalidBodyIsRefusedAndNeitherDecisionNorEntryIsWritten() throws {
    let store = try TestState.store()
    let request = try store.recordNotification(TestState.notification()).requestId
    let bad = Data(
      #"{"customerConsented":false,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
        .utf8)
    #expect(throws: StateDatabaseError.self) {
      try store.recordDecision(
        TestState.decision(), requestId: request, enqueue: TestState.enqueue(body: bad))
    }
    #expect(try store.connection.query("SELECT COUNT(*) FROM decisions").first?.int(0) == 0)
    #expect(try store.entries().isEmpty)
  }

  @Test func aFailedEntryInsertRollsBackItsDecision() throws {
    let store = try TestState.store()
    let request = try store.recordNotification(TestState.notification()).requestId
    try store.connection.execute(
      "CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    #expect(throws: StateDatabaseError.self) {
      try store.recordDecision(
        TestState.decision(), requestId: request, enqueue: TestState.enqueue())
    }
    #expect(try store.connection.query("SELECT COUNT(*) FROM decisions").first?.int(0) == 0)
  }

  @Test func earlierRequestsForATransactionAreCounted() throws {
    let store = try TestState.store()
    for hour in 0..<3 {
      _ = try store.recordNotification(
        TestState.notification(
          transaction: "77", at: TestState.start.addingTimeInterval(Double(hour) * 3_600)))
    }
    #expect(
      try store.requestCount(transactionId: "77", before: TestState.start.addingTimeInterval(7_000))
        == 2)
    #expect(try store.requestCount(transactionId: "78", before: .distantFuture) == 0)
  }

  @Test func outcomesAttachToTheLatestRequestAndCountAsRefundsForTheCustomer() throws {
    let store = try TestState.store()
    let request = try store.recordNotification(
      TestState.notification(transaction: "55", token: "ABC")
    ).requestId
    let attached = try store.attachOutcome(
      .refund, notificationUUID: "n-1", transactionId: "55", appAccountToken: "ABC",
      occurredAt: TestState.start.addingTimeInterval(60))
    try store.attachOutcome(
      .refund, notificationUUID: "n-1", transactionId: "55", appAccountToken: "abc",
      occurredAt: TestState.start)
    #expect(attached == request)
    #expect(try store.outcomes(requestId: request) == [.refund])
    #expect(try store.refundCount(customer: .appAccountToken("abc"), before: .distantFuture) == 1)
    #expect(try store.refundCount(customer: .appAccountToken("abc"), before: TestState.start) == 0)
  }

  @Test func savingAnEntryRecordsItsAttemptInTheSameTransaction() throws {
    let store = try TestState.store()
    var entry = try TestState.enqueued(in: store)
    guard case .send = entry.poll(now: TestState.start) else {
      Issue.record("not sent")
      return
    }
    _ = entry.delivered(
      .answered(ConsumptionAnswer(status: 202)), now: TestState.start,
      backoff: Backoff(initial: 1, maximum: 2))
    let attempt = DeliveryAttempt(
      entryId: entry.id, startedAt: TestState.start, finishedAt: TestState.start, httpStatus: 202,
      errorCode: nil,
      errorMessage: nil, result: "sent")
    try store.save(&entry, attempt: attempt, now: TestState.start)
    #expect(try store.entry(id: entry.id).state == .sent(at: TestState.start))
    #expect(try store.attempts(entryId: entry.id) == [attempt])
  }

  @Test func heldEntriesWaitUntilAnHourBeforeTheDeadline() throws {
    let store = try TestState.store()
    let entry = try TestState.enqueued(in: store, hold: true)
    #expect(entry.state == .held(releaseAt: TestState.start.addingTimeInterval(11 * 3_600)))
    #expect(try store.dueEntries(now: TestState.start.addingTimeInterval(3_600), limit: 10).isEmpty)
    #expect(
      try store.dueEntries(now: TestState.start.addingTimeInterval(11 * 3_600), limit: 10).map(\.id)
        == [entry.id])
  }
}

/// The state database holds customers' transaction ids and account tokens.
@Suite struct StateFilePermissionTests {
  @Test func aNewStateDatabaseAndItsLogAreReadableByTheirOwnerOnly() throws {
    let path = TestState.temporaryPath()
    let store = try StateStore(path: path)
    _ = try TestState.enqueued(in: store)
    for file in [path, path + "-wal"] {
      let mode = try #require(
        try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
      #expect(mode & 0o077 == 0, "\(file) has mode \(String(mode, radix: 8))")
    }
  }
}
