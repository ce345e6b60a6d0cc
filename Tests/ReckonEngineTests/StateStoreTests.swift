import Foundation
import ReckonAppStore
import ReckonSQLite
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

@Suite struct StateStoreTests {
  @Test func newDatabaseIsAtTheNewestSchemaAndReopeningMigratesNothing() throws {
    let path = TestState.temporaryPath()
    let first = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try first.schemaVersion() == StateSchema.migrations.count)
    let second = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try second.schemaVersion() == StateSchema.migrations.count)
  }

  @Test func databaseFromANewerReckonIsRefused() throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    try store.connection.query("INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)")
    let error = #expect(throws: StateError.self) {
      try SQLiteStateStore(path: path, rules: .appStore)
    }
    #expect(error == .newerSchema(path: path, found: 99, known: StateSchema.migrations.count))
  }

  /// A database as Reckon left it at `version`: its first `version` migrations and no newer.
  static func database(atVersion version: Int) throws -> String {
    let path = TestState.temporaryPath()
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL")
    try StateSchema.migrate(connection, now: 0, to: version)
    return path
  }

  @Test func aReadOnlyOpenReadsADatabaseAtTheOldestReadableVersionAndRefusesAnOlderOne() throws {
    let path = try Self.database(atVersion: StateSchema.oldestReadable)
    let reader = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    #expect(try reader.schemaVersion() == StateSchema.oldestReadable)
    #expect(try reader.decidedOutcomes(since: nil, until: nil).isEmpty)
    let older = try Self.database(atVersion: StateSchema.oldestReadable - 1)
    let error = #expect(throws: StateError.self) {
      try SQLiteStateStore(path: older, rules: .appStore, access: .readOnly)
    }
    #expect(
      error
        == .olderSchema(
          path: older, found: StateSchema.oldestReadable - 1, needed: StateSchema.oldestReadable))
    let upgraded = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try upgraded.schemaVersion() == StateSchema.migrations.count)
  }

  /// What `reckon queue list` and `show` read works on every version a read-only open takes:
  /// a CLI upgraded before the service, or a backup, is read as it is.
  @Test(arguments: StateSchema.oldestReadable...StateSchema.migrations.count)
  func theOutboxReadsAtEveryReadableVersion(version: Int) throws {
    let reader = try SQLiteStateStore(
      path: try Self.database(atVersion: version), rules: .appStore, access: .readOnly)
    #expect(try reader.entries().isEmpty)
    #expect(try reader.entryCount() == 0)
  }

  /// Two processes opening one older file at once (serve starting while cron runs send) both
  /// read its old version; the one that migrates second finds each migration done and skips it,
  /// rather than fail with "duplicate column".
  @Test func aMigrationAnotherProcessAppliedMeanwhileIsSkipped() throws {
    let path = try Self.database(atVersion: 1)
    let first = try SQLiteConnection(path: path, synchronous: "NORMAL")
    let second = try SQLiteConnection(path: path, synchronous: "NORMAL")
    try StateSchema.migrate(first, now: 0)
    try StateSchema.apply(second, after: 1, upTo: StateSchema.migrations.count, now: 0)
    #expect(
      try SQLiteStateStore(path: path, rules: .appStore).schemaVersion()
        == StateSchema.migrations.count)
  }

  /// Two services on one database (a standby retrying undecided requests beside the webhook)
  /// decide a request once: the second decision is not written and queues no second reply.
  @Test func aRequestAlreadyDecidedByAnotherStoreIsNotDecidedAgain() throws {
    let path = TestState.temporaryPath()
    let first = try SQLiteStateStore(path: path, rules: .appStore)
    let second = try SQLiteStateStore(path: path, rules: .appStore)
    let request = try first.recordNotification(TestState.notification()).requestId
    let one = try first.recordDecision(
      TestState.decision(), requestId: request, enqueue: TestState.enqueue())
    let two = try second.recordDecision(
      TestState.decision(), requestId: request, enqueue: TestState.enqueue())
    #expect(!one.alreadyDecided)
    #expect(two.alreadyDecided)
    #expect(two.decisionId == one.decisionId && two.entryId == one.entryId)
    #expect(try first.entryCount() == 1)
    let decisions = try first.connection.query("SELECT count(*) FROM decisions").first?.int(0)
    #expect(decisions == 1)
  }

  /// The same notification delivered to two services on one database at once is recorded once:
  /// while one is mid-record (its write transaction open, here on a third connection), the
  /// other waits and then finds it, rather than look before the commit and fail on the UUID.
  @Test func aNotificationBeingRecordedElsewhereIsFoundOnceItCommits() throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    let record = TestState.notification()
    let other = try SQLiteStateStore(path: path, rules: .appStore)
    try other.connection.execute("BEGIN IMMEDIATE")
    try other.connection.query(
      """
      INSERT INTO requests (notification_uuid, notification_type, bundle_id, environment,
        received_at, deadline, raw_notification)
      VALUES (?, 'CONSUMPTION_REQUEST', 'com.example', 'Production', 0, 1, x'00')
      """, [.text(record.notificationUUID)])
    let results = Results()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      results.add(Result { try store.recordNotification(record) })
      done.signal()
    }
    usleep(200_000)
    try other.connection.execute("COMMIT")
    done.wait()
    let result = try #require(results.all.first)
    guard case .success(.duplicate) = result else {
      Issue.record("expected the notification found as recorded, got \(result)")
      return
    }
  }

  private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [Result<RecordResult, any Error>] = []
    func add(_ result: Result<RecordResult, any Error>) { lock.withLock { found.append(result) } }
    var all: [Result<RecordResult, any Error>] { lock.withLock { found } }
  }

  @Test func eachRequestsOutcomesAndARangeOfRequestsAreFoundByIndexNotByScanning() throws {
    let store = try TestState.store()
    let plan = { (sql: String) throws -> String in
      try store.connection.query("EXPLAIN QUERY PLAN " + sql).compactMap { $0.text(3) }
        .joined(separator: "; ")
    }
    let outcomes = try plan(
      "SELECT type FROM outcomes o WHERE o.request_id = 1 ORDER BY o.occurred_at, o.id")
    #expect(outcomes.contains("outcomes_by_request"), "\(outcomes)")
    #expect(!outcomes.contains("TEMP B-TREE"), "\(outcomes)")
    let range = try plan("SELECT id FROM requests WHERE received_at >= 0 AND received_at < 1")
    #expect(range.contains("requests_by_received"), "\(range)")
  }

  @Test(arguments: [false, true], [[], ["sent"], ["held", "pending"]])
  func theQueueListingReadsEntriesInOrderOffAnIndexInsteadOfSortingTheOutbox(
    finished: Bool, states: [String]
  ) throws {
    let store = try TestState.store()
    // Statistics of a long history, under which the planner would rather scan for a state filter.
    try store.connection.execute(
      """
      ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl = 'outbox';
      INSERT INTO sqlite_stat1 (tbl, idx, stat)
      VALUES ('outbox', 'outbox_by_listing', '200000 100000 1'), ('outbox', NULL, '200000')
      """)
    try store.connection.execute("ANALYZE sqlite_schema")
    let plan = try store.connection.query(
      "EXPLAIN QUERY PLAN " + SQLiteStateStore.listing(finished: finished, states: states),
      states.map { .text($0) } + [.integer(1_000)]
    ).compactMap { $0.text(3) }.joined(separator: "; ")
    #expect(plan.contains("outbox_by_listing"), "\(plan)")
    #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
  }

  @Test func databaseUsesWriteAheadLogging() throws {
    let store = try TestState.store()
    let mode = try store.connection.query("PRAGMA journal_mode").first?.text(0)
    #expect(mode == "wal")
  }

  /// A write that fails for the file's sake is kept as the store's write problem until a write
  /// commits; a constraint (a duplicate the caller meant to refuse) is no problem of the file.
  @Test func aFailedWriteIsAWriteProblemUntilAWriteCommits() throws {
    let store = try TestState.store()
    _ = try store.recordNotification(TestState.notification("kept"))
    _ = try store.attachOutcome(
      .refund, notificationUUID: "stored", transactionId: "1000", occurredAt: TestState.start)
    #expect(store.writeProblem == nil)
    try store.locked { () throws(StateError) in
      try store.connection.execute("PRAGMA query_only = 1")
    }
    #expect(throws: StateError.self) {
      try store.recordNotification(TestState.notification("refused"))
    }
    let problem = try #require(store.writeProblem)
    #expect(problem.reason.contains("readonly"))
    #expect(throws: StateError.self) { try store.checkWritable() }
    #expect(store.writeProblem == problem, "the first failure's time and reason are kept")
    try store.locked { () throws(StateError) in
      try store.connection.execute("PRAGMA query_only = 0")
    }
    // A commit that changed nothing (a duplicate answered from what is stored, an outcome
    // stored already) wrote no page: it proves nothing, and the problem stands until a write does.
    #expect(
      try store.recordNotification(TestState.notification("kept")) == .duplicate(requestId: 1))
    _ = try store.attachOutcome(
      .refund, notificationUUID: "stored", transactionId: "1000", occurredAt: TestState.start)
    #expect(store.writeProblem == problem)
    try store.checkWritable()
    #expect(store.writeProblem == nil)
    let left = try store.locked { () throws(StateError) in
      try store.connection.query("SELECT COUNT(*) FROM schema_migrations WHERE version < 1")
    }
    #expect(left.first?.int(0) == 0, "the check left a row behind")

    try store.locked { () throws(StateError) in
      try store.connection.query(
        "INSERT INTO app_pauses VALUES ('com.example.coins', 'Production', 0, 'test')")
    }
    #expect(throws: StateError.self) {
      try store.locked { () throws(StateError) in
        try store.connection.query(
          "INSERT INTO app_pauses VALUES ('com.example.coins', 'Production', 0, 'again')")
      }
    }
    #expect(store.writeProblem == nil)
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

  /// A second CONSUMPTION_REQUEST, `after` seconds after the first, for this transaction, app
  /// and type, and whether it repeats the first.
  struct RepeatCase: Sendable, CustomStringConvertible {
    var after: TimeInterval
    var transaction = "1000"
    var bundleId = TestState.app.bundleId
    var type = "CONSUMPTION_REQUEST"
    var repeats: Bool
    var description: String { "\(type) \(transaction) \(bundleId) after \(after) s" }
  }

  @Test(arguments: [
    RepeatCase(after: 60, repeats: true),
    RepeatCase(after: 12 * 3_600 - 1, repeats: true),
    RepeatCase(after: 12 * 3_600, repeats: false),
    RepeatCase(after: 2 * 86_400, repeats: false),
    RepeatCase(after: 60, transaction: "1001", repeats: false),
    RepeatCase(after: 60, bundleId: "com.example.other", repeats: false),
    RepeatCase(after: 60, type: "REFUND", repeats: false),
  ])
  func aRequestForATransactionWhoseRequestIsStillOpenIsRecordedAsItsRepeat(_ second: RepeatCase)
    throws
  {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    var record = TestState.notification(
      transaction: second.transaction, at: TestState.start.addingTimeInterval(second.after))
    record.bundleId = second.bundleId
    record.notificationType = second.type
    let result = try store.recordNotification(record)
    if second.repeats {
      #expect(result == .repeated(requestId: first + 1, of: first))
    } else {
      #expect(result == .recorded(requestId: first + 1))
    }
  }

  /// Apple's verdict on a request closes it: the customer asking again within its window is a
  /// new request, decided and counted, not a repeat left unanswered. A REVOKE (family sharing)
  /// is no verdict, nor is a REFUND_REVERSED (it undoes an earlier refund), and another app's
  /// outcome does not attach.
  @Test(arguments: [
    (OutcomeType.refundDeclined, true), (.refund, true), (.refundReversed, false),
    (.revoke, false),
  ])
  func aRequestAfterAppleDecidedTheOpenOneIsANewRequest(outcome: OutcomeType, closes: Bool)
    throws
  {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    let attached = try store.attachOutcome(
      outcome, notificationUUID: "outcome", transactionId: "1000", app: TestState.app.key,
      occurredAt: TestState.start.addingTimeInterval(3_600))
    #expect(attached == first)
    let again = try store.recordNotification(
      TestState.notification("again", at: TestState.start.addingTimeInterval(7_200)))
    if closes {
      #expect(again == .recorded(requestId: first + 1))
      let later = TestState.start.addingTimeInterval(7_300)
      #expect(try store.requestCount(transactionId: "1000", before: later) == 2)
      // Its own retries under further UUIDs repeat it, not the request Apple decided.
      let retry = try store.recordNotification(
        TestState.notification("retry", at: TestState.start.addingTimeInterval(7_260)))
      #expect(retry == .repeated(requestId: first + 2, of: first + 1))
    } else {
      #expect(again == .repeated(requestId: first + 1, of: first))
    }
  }

  /// An outcome attaches to the latest request when it is stored, whatever it is about: one
  /// from before the open request (imported from history, or delivered again after a 500) must
  /// not close it, or the request's next copy would be answered a second time.
  @Test func anOutcomeFromBeforeTheOpenRequestDoesNotCloseIt() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    let attached = try store.attachOutcome(
      .refundDeclined, notificationUUID: "old", transactionId: "1000", app: TestState.app.key,
      occurredAt: TestState.start.addingTimeInterval(-30 * 86_400))
    #expect(attached == first)
    let copy = try store.recordNotification(
      TestState.notification("copy", at: TestState.start.addingTimeInterval(3_600)))
    #expect(copy == .repeated(requestId: first + 1, of: first))
  }

  /// A copy Apple signed before its verdict and delivered after it (retried after a 500, or
  /// out of order) is the same request, not the customer asking again.
  @Test func aCopySignedBeforeTheVerdictButDeliveredAfterItIsARepeat() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    _ = try store.attachOutcome(
      .refundDeclined, notificationUUID: "declined", transactionId: "1000", app: TestState.app.key,
      occurredAt: TestState.start.addingTimeInterval(2_400))
    var late = TestState.notification("late", at: TestState.start.addingTimeInterval(3_600))
    late.signedDate = TestState.start.addingTimeInterval(600)
    #expect(try store.recordNotification(late) == .repeated(requestId: first + 1, of: first))
  }

  /// Apple's verdict came in late (it retries an outcome it got no 200 for) and the customer had
  /// asked again meanwhile: that request, taken for a repeat when it came, is reopened as one of
  /// its own for the retry of undecided requests to decide, and its later copies repeat it.
  @Test func aVerdictThatComesInLateReopensTheRequestSentAfterIt() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    let earlierCopy = TestState.notification("copy", at: TestState.start.addingTimeInterval(600))
    #expect(try store.recordNotification(earlierCopy) == .repeated(requestId: first + 1, of: first))
    var asked = TestState.notification("asked", at: TestState.start.addingTimeInterval(3_600))
    asked.signedDate = TestState.start.addingTimeInterval(3_600)
    #expect(try store.recordNotification(asked) == .repeated(requestId: first + 2, of: first))
    let again = TestState.notification("again", at: TestState.start.addingTimeInterval(3_700))
    #expect(try store.recordNotification(again) == .repeated(requestId: first + 3, of: first))

    _ = try store.attachOutcome(
      .refundDeclined, notificationUUID: "late-verdict", transactionId: "1000",
      app: TestState.app.key, occurredAt: TestState.start.addingTimeInterval(1_800))
    let undecided = try store.undecidedRequests(
      before: .distantFuture, now: TestState.start.addingTimeInterval(3_800))
    #expect(undecided.map(\.requestId) == [first, first + 2], "the copy sent before stays one")
    let later = TestState.start.addingTimeInterval(4_000)
    #expect(try store.requestCount(transactionId: "1000", before: later) == 2)
    let next = try store.recordNotification(
      TestState.notification("next", at: TestState.start.addingTimeInterval(3_900)))
    #expect(next == .repeated(requestId: first + 4, of: first + 2))
  }

  /// Apple's clock against Apple's: a request Apple signed after its verdict is new even when
  /// this server's clock, running behind, received it "before" the verdict's time.
  @Test func aRequestSignedAfterTheVerdictIsNewWhateverTheLocalClockSays() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    _ = try store.attachOutcome(
      .refundDeclined, notificationUUID: "declined", transactionId: "1000", app: TestState.app.key,
      occurredAt: TestState.start.addingTimeInterval(1_800))
    var asked = TestState.notification("asked", at: TestState.start.addingTimeInterval(1_799))
    asked.signedDate = TestState.start.addingTimeInterval(1_801)
    #expect(try store.recordNotification(asked) == .recorded(requestId: first + 1))
  }

  @Test func anotherAppsOutcomeLeavesTheRequestOpen() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    let other = try store.attachOutcome(
      .refundDeclined, notificationUUID: "other-app", transactionId: "1000",
      app: AppStoreApp(bundleId: "com.example.other", environment: .production).key,
      occurredAt: TestState.start.addingTimeInterval(3_600))
    #expect(other == nil)
    let again = try store.recordNotification(
      TestState.notification("again", at: TestState.start.addingTimeInterval(7_200)))
    #expect(again == .repeated(requestId: first + 1, of: first))
  }

  @Test func aRepeatIsNeitherCountedNorDecidedNorDryRun() throws {
    let store = try TestState.store()
    let first = try store.recordNotification(TestState.notification()).requestId
    let copy = TestState.notification("copy", at: TestState.start.addingTimeInterval(60))
    #expect(try store.recordNotification(copy) == .repeated(requestId: first + 1, of: first))
    #expect(try store.recordNotification(copy) == .duplicate(requestId: first + 1))
    #expect(try store.hasNotification(uuid: "copy"))
    #expect(try store.requestCount(transactionId: "1000", before: .distantFuture) == 1)
    let undecided = try store.undecidedRequests(before: .distantFuture, now: TestState.start)
    #expect(undecided.map(\.requestId) == [first])
    #expect(try store.storedRequests(since: nil, until: nil).map(\.id) == [first])
    // An outcome belongs to the request that was decided, not to its copy.
    let attached = try store.attachOutcome(
      .refund, notificationUUID: "refund", transactionId: "1000",
      occurredAt: TestState.start.addingTimeInterval(3_600))
    #expect(attached == first)
  }

  @Test func anOutcomeAttachesToTheRequestOfItsOwnAppAndEnvironment() throws {
    let store = try TestState.store()
    let production = try store.recordNotification(TestState.notification()).requestId
    var sandbox = TestState.notification(at: TestState.start.addingTimeInterval(60))
    sandbox.environment = "Sandbox"
    let sandboxRequest = try store.recordNotification(sandbox).requestId
    #expect(sandboxRequest != production)
    let attached = try store.attachOutcome(
      .refund, notificationUUID: "refund", transactionId: "1000", app: TestState.app.key,
      occurredAt: TestState.start.addingTimeInterval(3_600))
    #expect(attached == production)
    let other = try store.attachOutcome(
      .refund, notificationUUID: "other-app", transactionId: "1000",
      app: AppStoreApp(bundleId: "com.example.other", environment: .production).key,
      occurredAt: TestState.start.addingTimeInterval(3_600))
    #expect(other == nil)
    // Nor does a Sandbox request count as an earlier request of a Production one.
    let later = TestState.start.addingTimeInterval(7_200)
    #expect(
      try store.requestCount(transactionId: "1000", app: TestState.app.key, before: later) == 1)
    #expect(try store.requestCount(transactionId: "1000", before: later) == 2)
  }

  @Test func aRequestImportedFromHistoryIsKeptButNeverLeftToDecide() throws {
    let store = try TestState.store()
    var imported = TestState.notification()
    imported.imported = true
    let id = try store.recordNotification(imported).requestId
    #expect(try store.undecidedRequests(before: .distantFuture, now: TestState.start).isEmpty)
    #expect(try store.storedRequests(since: nil, until: nil).map(\.id) == [id])
    #expect(try store.requestCount(transactionId: "1000", before: .distantFuture) == 1)
  }

  @Test(arguments: [SQLiteStateStore.Access.readOnly, .existing])
  func aFileThatIsNotSQLiteIsNotAStateDatabase(access: SQLiteStateStore.Access) throws {
    let path = TestState.temporaryPath()
    try Data("not a database, just text\n".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: StateError.self) {
      try SQLiteStateStore(path: path, rules: .appStore, access: access)
    }
    #expect(error == .notAStateDatabase(path: path))
  }

  /// `state.path` naming the app's own database (an easy slip) must not give it Reckon's tables,
  /// nor switch it to WAL, whichever command opens it.
  @Test(
    arguments: [SQLiteStateStore.Access.create, .existing, .readOnly],
    [
      "CREATE TABLE purchases (transaction_id TEXT PRIMARY KEY)",
      "CREATE VIEW purchases AS SELECT 1 AS transaction_id", "PRAGMA application_id = 12345",
      "PRAGMA user_version = 7",
    ])
  func anotherProgramsDatabaseIsRefusedAndLeftAsItWas(access: SQLiteStateStore.Access, made: String)
    throws
  {
    let path = TestState.temporaryPath()
    let app = try SQLiteDatabase(path: path, options: [.readWrite, .create])
    try app.execute(made)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = #expect(throws: StateError.self) {
      try SQLiteStateStore(path: path, rules: .appStore, access: access)
    }
    #expect(error == .notAStateDatabase(path: path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try app.query("PRAGMA journal_mode").first?.text(0) == "delete")
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  /// An empty file is a database with no tables: the service may make it its own, but an
  /// operator command expecting one already in use must neither accept nor write to it, and
  /// says it holds no state yet, as doctor does, rather than that it is another program's.
  @Test(arguments: [StateAccess.existing, .readOnly])
  func anEmptyFileIsTakenOnlyByTheService(access: StateAccess) throws {
    let path = TestState.temporaryPath()
    try #require(FileManager.default.createFile(atPath: path, contents: Data()))
    let error = #expect(throws: StateError.self) {
      try SQLiteStateStore(path: path, rules: .appStore, access: access)
    }
    #expect(error == .noStateYet(path: path))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
    let store = try SQLiteStateStore(path: path, rules: .appStore, access: .create)
    #expect(try store.schemaVersion() == StateSchema.migrations.count)
  }

  @Test func aLiveCopyOfAnImportedRequestIsARequestOfItsOwn() throws {
    let store = try TestState.store()
    var imported = TestState.notification()
    imported.imported = true
    let first = try store.recordNotification(imported).requestId
    let live = TestState.notification(at: TestState.start.addingTimeInterval(60))
    #expect(try store.recordNotification(live) == .recorded(requestId: first + 1))
  }

  /// Apple delivers again a request it had no 200 for; an import that found it in the history
  /// first must not make the webhook take that delivery for a copy already handled.
  @Test func aLiveDeliveryOfAnImportedRequestIsRecordedLiveAndLeftToDecide() throws {
    let store = try TestState.store()
    var imported = TestState.notification("retried")
    imported.imported = true
    let id = try store.recordNotification(imported).requestId
    let live = TestState.notification("retried", at: TestState.start.addingTimeInterval(3_600))
    #expect(try store.recordNotification(live) == .recorded(requestId: id))
    let undecided = try store.undecidedRequests(
      before: .distantFuture, now: TestState.start.addingTimeInterval(3_600))
    #expect(undecided.map(\.requestId) == [id])
    #expect(try store.recordNotification(live) == .duplicate(requestId: id))
  }

  @Test func anImportedOutcomeDeliveredLiveIsADuplicate() throws {
    let store = try TestState.store()
    var imported = TestState.notification("refund")
    imported.notificationType = "REFUND"
    imported.imported = true
    let id = try store.recordNotification(imported).requestId
    var live = imported
    live.imported = false
    #expect(try store.recordNotification(live) == .duplicate(requestId: id))
  }

  /// Apple's retries resend the first delivery's payload, so a late delivery has less time left;
  /// a receipt earlier than the signature (Reckon's clock behind Apple's) counts from the receipt.
  @Test(arguments: [(-3 * 3_600.0, -3 * 3_600.0), (0, 0), (120, 0)])
  func theReplyWindowCountsFromTheEarlierOfSigningAndReceipt(
    signedOffset: TimeInterval, windowStartOffset: TimeInterval
  ) {
    var record = TestState.notification()
    record.signedDate = TestState.start.addingTimeInterval(signedOffset)
    #expect(
      ReplyRules.appStore.deadline(of: record)
        == TestState.start.addingTimeInterval(windowStartOffset + 12 * 3_600))
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
    #expect(throws: StateError.self) {
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
    #expect(throws: StateError.self) {
      try store.recordDecision(
        TestState.decision(), requestId: request, enqueue: TestState.enqueue())
    }
    #expect(try store.connection.query("SELECT COUNT(*) FROM decisions").first?.int(0) == 0)
  }

  @Test func earlierRequestsForATransactionAreCounted() throws {
    let store = try TestState.store()
    for period in 0..<3 {
      _ = try store.recordNotification(
        TestState.notification(
          transaction: "77", at: TestState.start.addingTimeInterval(Double(period) * 13 * 3_600)))
    }
    #expect(
      try store.requestCount(
        transactionId: "77", before: TestState.start.addingTimeInterval(14 * 3_600)) == 2)
    #expect(try store.requestCount(transactionId: "78", before: .distantFuture) == 0)
  }

  @Test func outcomesAttachToTheLatestRequestAndCountAsRefundsForTheCustomer() throws {
    let store = try TestState.store()
    let request = try store.recordNotification(
      TestState.notification(transaction: "55", token: "7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B")
    ).requestId
    let attached = try store.attachOutcome(
      .refund, notificationUUID: "n-1", transactionId: "55",
      appAccountToken: "7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B",
      occurredAt: TestState.start.addingTimeInterval(60))
    try store.attachOutcome(
      .refund, notificationUUID: "n-1", transactionId: "55",
      appAccountToken: "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b",
      occurredAt: TestState.start)
    #expect(attached == request)
    #expect(try store.outcomes(requestId: request) == [.refund])
    // A UUID's case means nothing.
    #expect(
      try store.refundCount(
        customer: .appAccountToken("7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"), before: .distantFuture)
        == 1)
    #expect(
      try store.refundCount(
        customer: .appAccountToken("7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"), before: TestState.start)
        == 0)
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

  /// Enqueues an entry received `after` seconds after the start (so its deadline is that much
  /// later) and lets Apple answer `status` to it.
  func answered(_ status: Int, in store: SQLiteStateStore, transaction: String, after: TimeInterval)
    throws -> OutboxEntry
  {
    let at = TestState.start.addingTimeInterval(after)
    var entry = try TestState.enqueued(in: store, transaction: transaction, at: at)
    _ = entry.poll(now: at)
    _ = entry.delivered(
      .answered(.init(status: status)), now: at,
      backoff: Backoff(initial: 30, maximum: 60, random: { 0 }))
    try store.save(&entry, now: at)
    return entry
  }

  @Test func entriesListUnfinishedOnesMostUrgentFirstThenFinishedOnesLatestFirst() throws {
    let store = try TestState.store()
    let sentFirst = try answered(202, in: store, transaction: "1", after: 0)
    let failed = try answered(400, in: store, transaction: "2", after: 30)
    let sentSecond = try answered(202, in: store, transaction: "3", after: 60)
    let held = try TestState.enqueued(
      in: store, transaction: "4", at: TestState.start.addingTimeInterval(600), hold: true)
    let pending = try TestState.enqueued(
      in: store, transaction: "5", at: TestState.start.addingTimeInterval(300))
    #expect(
      try store.entries().map(\.id)
        == [failed.id, pending.id, held.id, sentSecond.id, sentFirst.id])
    #expect(try store.entries(limit: 2).map(\.id) == [failed.id, pending.id])
    #expect(
      try store.entries(limit: 4).map(\.id) == [failed.id, pending.id, held.id, sentSecond.id])
    #expect(try store.entries(states: ["sent"]).map(\.id) == [sentSecond.id, sentFirst.id])
    #expect(try store.entries(states: ["sent"], limit: 1).map(\.id) == [sentSecond.id])
    #expect(
      try store.entries(states: ["held", "sent"]).map(\.id) == [
        held.id, sentSecond.id, sentFirst.id,
      ])
  }

  @Test func entryCountCountsTheNamedStatesOrAll() throws {
    let store = try TestState.store()
    #expect(try store.entryCount() == 0)
    _ = try answered(202, in: store, transaction: "1", after: 0)
    _ = try answered(202, in: store, transaction: "2", after: 30)
    _ = try TestState.enqueued(in: store, transaction: "3", hold: true)
    #expect(try store.entryCount() == 3)
    #expect(try store.entryCount(states: ["sent"]) == 2)
    #expect(try store.entryCount(states: ["held", "pending"]) == 1)
    #expect(try store.entryCount(states: ["failed"]) == 0)
  }
}

/// The state database holds customers' transaction ids and account tokens.
@Suite struct StateFilePermissionTests {
  @Test func aNewStateDatabaseAndItsLogAreReadableByTheirOwnerOnly() throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    _ = try TestState.enqueued(in: store)
    for file in [path, path + "-wal"] {
      let mode = try #require(
        try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
      #expect(mode & 0o077 == 0, "\(file) has mode \(String(mode, radix: 8))")
    }
  }
}
