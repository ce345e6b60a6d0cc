import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// `reckon state migrate` moves a whole SQLite state into PostgreSQL, ids and all; running it
/// again writes nothing; it refuses while a sender holds the file.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct StateMigrateCommandTests {
  typealias Fixture = StateSamples
  let path = Fixture.temporaryPath()
  let url: String

  /// A file with a reply sent after a failed try, one held, one pending, an outcome, an
  /// undecided request waiting out a retry, a pause, a throttle and a live policy.
  init() throws {
    url = try TestPostgres.freshDatabase()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    var sent = try Fixture.enqueued(in: store, transaction: "1")
    _ = try Fixture.enqueued(in: store, transaction: "2", hold: true)
    _ = try Fixture.enqueued(in: store, transaction: "3")
    let later = Fixture.start.addingTimeInterval(30)
    sent.state = .sent(at: later)
    try store.save(
      &sent,
      attempt: DeliveryAttempt(
        entryId: sent.id, startedAt: later, finishedAt: later, httpStatus: 202, errorCode: nil,
        errorMessage: nil, result: "sent"), now: later)
    _ = try store.attachOutcome(
      .refund, notificationUUID: UUID().uuidString, transactionId: "1", app: Fixture.appKey,
      originalTransactionId: "900", appAccountToken: nil, occurredAt: later)
    let undecided = try store.recordNotification(Fixture.notification(transaction: "4"))
    try store.postponeRetry(
      requestId: undecided.requestId, until: later, reason: "app-db timed out")
    try store.pause(Fixture.appKey, until: later.addingTimeInterval(600), reason: "401")
    try store.throttle(Fixture.appKey, until: later.addingTimeInterval(60), now: later)
    try store.archiveLivePolicy(
      ArchivedPolicy(
        app: Fixture.appKey, source: "policy.reckon", text: "rule \"ö\": respond\n",
        textSHA256: String(repeating: "b", count: 64), wentLiveAt: later))
  }

  /// A configuration beside the file of an app on it, listening on a free port, with `more`
  /// top-level keys; its path.
  private func serviceConfiguration(_ more: String? = nil) throws -> String {
    let configuration =
      URL(fileURLWithPath: path).deletingLastPathComponent().path
      + "/reckon-\(UUID().uuidString).json"
    try Data(
      """
      {"apps": [{"bundleId": "com.example.coins", "appAppleId": 1, "environment": "Production",
                 "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy"}],
       "state": {"path": "\(path)"}, "server": {"listen": "127.0.0.1:0"}\(more.map { ", " + $0 } ?? "")}
      """.utf8
    ).write(to: URL(fileURLWithPath: configuration))
    return configuration
  }

  private func migrate(_ extra: [String] = []) async throws -> ReckonBinary.Run {
    try await ReckonBinary.run(["state", "migrate", "--from", path, "--to", url] + extra)
  }

  /// The file packs notifications and deflates decisions' JSON, and so does the database, each
  /// with certificate ids of its own: what moves is the bytes as received and written.
  @Test func signedNotificationsAndExplanationsReadBackInTheDatabaseAsInTheFile() async throws {
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    var simulated = SimulatedNotification()
    simulated.transactionId = "5"
    var record = Fixture.notification(transaction: "5")
    record.rawNotification = try AppleShapedNotification().body(simulated)
    let requestId = try store.recordNotification(record).requestId
    var decision = Fixture.decision()
    decision.explanationJSON = Data(#"{"facts":[],"rule":"delivered"}"#.utf8)
    let receipt = try store.recordDecision(
      decision, requestId: requestId, enqueue: nil, sentAt: nil)
    let run = try await migrate()
    #expect(run.status == 0, "\(run.standardError)")
    let database = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    #expect(
      try database.recordedNotification(requestId: requestId)?.rawNotification
        == record.rawNotification)
    #expect(try database.decision(id: receipt.decisionId) == decision)
    #expect(
      try database.storedRequests(since: nil, until: nil)
        == store.storedRequests(since: nil, until: nil))
  }

  @Test func everyRowMovesWithItsIdAndASecondRunWritesNothing() async throws {
    let first = try await migrate()
    #expect(first.status == 0, "\(first.standardError)")
    #expect(
      first.standardOutput.contains("requests: 4 in the file, 4 written now, 4 in the database"))
    #expect(first.standardOutput.contains("every row of the file is in the database"))
    let again = try await migrate(["--format", "json"])
    #expect(again.status == 0, "\(again.standardError)")
    #expect(again.standardOutput.contains(#""requests":{"source":4,"written":0,"target":4}"#))
    #expect(again.standardOutput.contains(#""attempts":{"source":1,"written":0,"target":1}"#))

    let file = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    let database = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let now = Fixture.start.addingTimeInterval(40)
    #expect(try database.entries(states: []) == file.entries(states: []))
    for entry in try file.entries(states: []) {
      #expect(try database.attempts(entryId: entry.id) == file.attempts(entryId: entry.id))
    }
    #expect(try database.outcomes(requestId: 1) == [.refund])
    #expect(try database.pauses() == file.pauses())
    #expect(try database.throttles(now: now) == file.throttles(now: now))
    #expect(try database.lastLivePolicy(app: Fixture.appKey) != nil)
    #expect(
      try database.lastLivePolicy(app: Fixture.appKey) == file.lastLivePolicy(app: Fixture.appKey))
    #expect(try database.decidedOutcomes(since: nil, until: nil).count == 3)
    #expect(try database.storedRequests(since: nil, until: nil).count == 4)
    #expect(try database.undecidedRequests(before: now, now: now).map(\.requestId) == [4])
    // New rows follow the moved ones.
    let next = try database.recordNotification(Fixture.notification(transaction: "5"))
    #expect(next.requestId == 5)
  }

  /// Once moved, the file's held and pending replies are the database's: a service started on
  /// the file would send them again, so the commands that write to it refuse it, naming where
  /// it went, and those that read it still read.
  @Test func aMovedFileIsRefusedToWritersAndStillRead() async throws {
    let run = try await migrate()
    #expect(run.status == 0, "\(run.standardError)")
    let configuration = try serviceConfiguration()
    for command in [["serve"], ["queue", "approve", "2"], ["prune", "--before", "2000-01-01"]] {
      let refused = try await ReckonBinary.run(command + ["--config", configuration])
      #expect(refused.status == 1, "\(command): \(refused.standardError)")
      #expect(
        refused.standardError.contains("the state in \(path) was moved to postgres://"),
        "\(command): \(refused.standardError)")
    }
    let list = try await ReckonBinary.run(["queue", "list", "--state", path])
    #expect(list.status == 0, "\(list.standardError)")
    // Moving it again is allowed: a move that stopped part-way is finished that way.
    let again = try await migrate()
    #expect(again.status == 0, "\(again.standardError)")
  }

  /// A serve started while a move holds the file is refused at its start, naming the move.
  @Test func aServeStartedDuringAMoveIsRefused() async throws {
    let moving = try MoveLock.forMove(statePath: path)
    defer { moving.release() }
    #expect(throws: MoveLock.Refusal.moving(path: path)) {
      try MoveLock.forService(statePath: path)
    }
    let configuration = try serviceConfiguration()
    let serve = try await ReckonBinary.run(["serve", "--config", configuration])
    #expect(serve.status == 1)
    #expect(
      serve.standardError.contains("reckon state migrate is moving \(path)"),
      "\(serve.standardError)")
    // Nor does a command that changes the outbox: a drop of a row already copied would be lost.
    let drop = try await ReckonBinary.run(["queue", "drop", "1", "--config", configuration])
    #expect(drop.status == 1)
    #expect(
      drop.standardError.contains("reckon state migrate is moving \(path)"),
      "\(drop.standardError)")
  }

  /// A sender started during a move names the move, which also holds the sender lock, rather
  /// than say another sender has it.
  @Test func aSendStartedDuringAMoveNamesTheMove() async throws {
    let moving = try MoveLock.forMove(statePath: path)
    defer { moving.release() }
    let key =
      URL(fileURLWithPath: path).deletingLastPathComponent().path
      + "/key-\(UUID().uuidString).p8"
    try FileManager.default.copyItem(atPath: TestKey.path, toPath: key)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
    let configuration = try serviceConfiguration(
      #""appStore": {"issuerId": "\#(TestKey.issuerId)", "keyId": "\#(TestKey.keyId)", "privateKeyPath": "\#(key)", "baseURL": "http://127.0.0.1:1"}"#
    )
    let send = try await ReckonBinary.run(["send", "--once", "--config", configuration])
    #expect(send.status == 1)
    #expect(
      send.standardError.contains("reckon state migrate is moving \(path)"),
      "\(send.standardError)")
    #expect(!send.standardError.contains("another sender"), "\(send.standardError)")
  }

  /// A database a service already recorded into holds other requests under the file's ids:
  /// skipping them as moved would leave the file's out and say everything moved.
  @Test func aDatabaseHoldingAnotherHistoryIsRefusedBeforeAnythingIsWritten() async throws {
    let database = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let live = try database.recordNotification(Fixture.notification(transaction: "77"))
    #expect(live.requestId == 1)
    let run = try await migrate()
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("the database holds another state's history: its requests row 1"),
      "\(run.standardError)")
    #expect(!run.standardOutput.contains("every row of the file is in the database"))
    #expect(try database.rowCount(.requests) == 1)
    #expect(try database.rowCount(.outbox) == 0)
  }

  /// A service holding the file, sending or not (a `reckon serve` without an App Store key
  /// holds no sender lock, only its share of the move lock), is refused: what it records
  /// meanwhile would stay in the file.
  @Test(arguments: [true, false])
  func aFileAServiceHoldsIsRefused(sending: Bool) async throws {
    let sender = sending ? try SenderLock(statePath: path) : nil
    let serving = sending ? nil : try MoveLock.forService(statePath: path)
    defer {
      sender?.release()
      serving?.release()
    }
    let run = try await migrate()
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("stop every reckon serve and reckon send first")
        || run.standardError.contains("stop reckon serve and reckon send first"),
      "\(run.standardError)")
    let database = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    #expect(try database.rowCount(.requests) == 0)
  }
}
