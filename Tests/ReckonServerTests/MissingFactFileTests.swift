import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonSQLite
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A SQLite facts file missing when the sender or the service starts: start-up goes on with a
/// warning naming the source, fresh replies go out, the replies and requests that need its facts
/// wait, and once the file appears they go on without a restart.
@Suite(.serialized) struct MissingFactFileTests {
  static let token = SimulatedNotification().appAccountToken ?? ""

  /// A workspace whose one fact source, `app-db`, reads `facts.sqlite`, not yet there; notifications
  /// signed by `authority` verify, replies go to `standIn`, retries back off 0.2 s to 1 s.
  static func workspace(_ standIn: URL, _ authority: LocalCertificateAuthority) throws -> URL {
    try ServeChild.workspace(
      standIn, authority, name: "missing-facts",
      factSource: """
        {"name": "app-db", "type": "sqlite", "path": "facts.sqlite", "busyTimeoutMs": 50,
         "queries": {"customer": "SELECT consented AS \\"customer.consented\\" FROM customers WHERE account_token = :app_account_token"}}
        """)
  }

  /// Writes `facts.sqlite` (the customer consents) beside it, then moves it in whole.
  static func createFacts(in folder: URL) throws {
    let building = folder.appendingPathComponent("facts.sqlite.new")
    do {
      let database = try SQLiteDatabase(
        path: building.path, options: [.readWrite, .create, .noMutex])
      try database.execute(
        """
        CREATE TABLE customers (account_token TEXT PRIMARY KEY, consented INTEGER NOT NULL);
        INSERT INTO customers VALUES ('\(token)', 1);
        """)
    }
    try FileManager.default.moveItem(
      at: building, to: folder.appendingPathComponent("facts.sqlite"))
  }

  /// Records a signed request for `transaction` received and decided at `date`, with its reply
  /// queued; returns the entry's id.
  static func enqueue(
    _ transaction: String, at date: Date, in store: SQLiteStateStore,
    signedBy authority: LocalCertificateAuthority
  ) throws -> Int64 {
    let body = try ServerFixture.notification(transaction: transaction).body(signedBy: authority)
    let record = NotificationRecord(
      notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
      transactionId: transaction, bundleId: TestKey.bundleId, environment: "Sandbox",
      receivedAt: date, rawNotification: body)
    let request = try store.recordNotification(record).requestId
    let decision = DecisionRecord(
      policyName: "missing facts", policyVersion: nil,
      policySHA256: SHA256Digest.hex(Data("policy".utf8)), action: "respond", rule: "otherwise",
      reason: nil, body: OutboxFixture.body, factsJSON: Data("[]".utf8), explanationJSON: nil,
      decidedAt: date)
    let enqueue = OutboxEnqueue(
      app: AppStoreApp(bundleId: TestKey.bundleId, environment: .sandbox).key,
      transactionId: transaction,
      body: try CheckedBody(appStore: OutboxFixture.body, context: .init()),
      deadline: ReplyRules.appStore.deadline(of: record), holdUntil: nil)
    return try store.recordDecision(decision, requestId: request, enqueue: enqueue).entryId!
  }

  @Test func theSenderSendsFreshRepliesWhileAFactFileIsMissingAndTheRestOnceItAppears()
    async throws
  {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(url, authority)
    let configuration = try ReckonConfiguration.load(
      path: folder.appendingPathComponent("reckon.json").path)
    let store = try SQLiteStateStore(path: configuration.stateLocation, rules: .appStore)
    let fresh = try Self.enqueue("61", at: Date(), in: store, signedBy: authority)
    let old = try Self.enqueue(
      "62", at: Date().addingTimeInterval(-120), in: store, signedBy: authority)
    let warnings = Lines()
    let sender = try SenderSetup.sender(
      configuration, store: store, client: try TestKey.client(url), warn: warnings.append,
      events: { _ in })

    #expect(warnings.all.count == 1)
    #expect(
      warnings.all.first?.contains(
        "fact source 'app-db' cannot be opened now (factSources[0].path: cannot open \(folder.path)/facts.sqlite"
      ) == true, "\(warnings.all)")
    // Drained again and again by the same sender, no new one: the fresh reply goes (after a
    // retry if a loaded machine timed its send out), the old one waits for the file.
    let freshSent = try await Self.drain(sender, within: 20) {
      try store.entry(id: fresh).state.name == "sent"
    }
    #expect(freshSent)
    let waiting = try store.entry(id: old)
    #expect(waiting.state.name == "pending")
    #expect(waiting.lastError?.contains("customer.consented could not be read") == true)
    #expect(waiting.lastError?.contains("app-db failed") == true, "\(waiting.lastError ?? "")")
    #expect(try store.attempts(entryId: old).allSatisfy { $0.httpStatus == nil })
    #expect(!standIn.requests.contains { $0.transactionId == "62" })

    try Self.createFacts(in: folder)
    let oldSent = try await Self.drain(sender, within: 20) {
      try store.entry(id: old).state.name == "sent"
    }
    #expect(oldSent)
    #expect(standIn.requests.filter { $0.transactionId == "62" }.map(\.status) == [202])
  }

  /// Drains `sender` every 100 ms until `done` or `seconds` have passed; whether `done`.
  static func drain(
    _ sender: OutboxSender, within seconds: Double, until done: () throws -> Bool
  ) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while try !done(), Date() < deadline {
      _ = try await sender.drainDue()
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    return try done()
  }

  @Test func reckonSendOnceStartsWithAWarningAndSendsWhatNeedsNoFacts() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(url, authority)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    let fresh = try Self.enqueue("71", at: Date(), in: store, signedBy: authority)
    let old = try Self.enqueue(
      "72", at: Date().addingTimeInterval(-120), in: store, signedBy: authority)

    let (status, logged) = try await SendProcessTests.sendOnce(
      binary, config: folder.appendingPathComponent("reckon.json"))

    #expect(status == 0, "\(logged)")
    let warning = try #require(
      logged.split(separator: "\n").first { SendProcessTests.event($0) == "startup" }, "\(logged)")
    #expect(warning.contains(#""level":"warning""#))
    #expect(warning.contains("fact source 'app-db' cannot be opened now"), "\(warning)")
    #expect(warning.contains("facts.sqlite"), "\(warning)")
    // The fresh reply was sent (a loaded machine may time a send out: then it is retrying);
    // the old one waits for its consent, and never reached the stand-in.
    #expect(try store.attempts(entryId: fresh).count == 1)
    #expect(!standIn.requests.contains { $0.transactionId == "72" })
    #expect(try store.entry(id: old).state.name == "pending")
    let attempts = try store.attempts(entryId: old)
    #expect(attempts.count == 1)
    let reason = attempts.first?.errorMessage ?? ""
    #expect(reason.hasPrefix("customer.consented could not be read"), "\(reason)")
    #expect(reason.contains("app-db failed: factSources[0].path: cannot open"), "\(reason)")
  }

  @Test func theLongRunningReckonSendSendsTheWaitingReplyOnceTheFactFileAppears() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(url, authority)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    _ = try Self.enqueue("81", at: Date(), in: store, signedBy: authority)
    let old = try Self.enqueue(
      "82", at: Date().addingTimeInterval(-120), in: store, signedBy: authority)
    let (process, log) = try SendProcessTests.launchSend(binary, folder: folder)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    let freshSent = await ServerFixture.eventually(within: 20) {
      standIn.requests.contains { $0.transactionId == "81" }
    }
    let waited = await ServerFixture.eventually(within: 10) {
      (try? store.attempts(entryId: old).count) ?? 0 >= 2
    }
    let sentBeforeTheFile = standIn.requests.map(\.transactionId)
    try Self.createFacts(in: folder)
    let oldSent = await ServerFixture.eventually(within: 20) {
      standIn.requests.contains { $0.transactionId == "82" && $0.status == 202 }
    }
    kill(process.processIdentifier, SIGTERM)
    await CrashRecoveryTests.waitForExit(process)

    let logged = try String(contentsOf: log, encoding: .utf8)
    #expect(freshSent && waited, "\(logged)")
    #expect(!sentBeforeTheFile.contains("82"))
    #expect(oldSent, "\(logged)")
    #expect(try store.entry(id: old).state.name == "sent")
    #expect(process.terminationStatus == 0)
  }

  /// `reckon serve`'s service starts too: the request is recorded and kept undecided, and the
  /// retry of undecided requests decides it once the file appears.
  @Test func theServiceStartsWithAWarningAndDecidesTheKeptRequestOnceTheFactFileAppears()
    async throws
  {
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(URL(string: "http://127.0.0.1:1")!, authority)
    let configuration = try ReckonConfiguration.load(
      path: folder.appendingPathComponent("reckon.json").path)
    let warnings = Lines()
    let decided = Lines()
    let service = try ReckonService(
      configuration: configuration, state: SQLiteStateOpener(), transport: CurlHTTPClient(),
      warn: warnings.append,
      events: { event in
        if case .decided(_, let transaction, let action, _, _, _, _) = event {
          decided.append("\(transaction) \(action)")
        }
      })
    #expect(
      warnings.all.contains { $0.contains("fact source 'app-db' cannot be opened now") },
      "\(warnings.all)")

    let body = try ServerFixture.notification(transaction: "91").body(signedBy: authority)
    let answer = await service.answer(body: body)
    #expect(answer.status == 200)
    #expect(answer.verdict == .deferred)
    #expect(await service.retryUndecided(olderThan: 0) == 0)

    try Self.createFacts(in: folder)
    #expect(decided.all.isEmpty)
    try service.store.makeRetriesDue()
    #expect(await service.retryUndecided(olderThan: 0) == 1)
    #expect(decided.all.map { $0.hasPrefix("91 ") } == [true], "\(decided.all)")
  }

  /// `run()` stops its retries between requests: a pass told to stop takes up no further
  /// request, and what it left is decided by the next.
  @Test func aRetryPassToldToStopTakesUpNoFurtherRequest() async throws {
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(URL(string: "http://127.0.0.1:1")!, authority)
    let configuration = try ReckonConfiguration.load(
      path: folder.appendingPathComponent("reckon.json").path)
    let decided = Lines()
    let service = try ReckonService(
      configuration: configuration, state: SQLiteStateOpener(), transport: CurlHTTPClient(),
      warn: { _ in },
      events: { event in
        if case .decided(_, let transaction, _, _, _, _, _) = event { decided.append(transaction) }
      })
    for transaction in ["91", "92", "93"] {
      let body = try ServerFixture.notification(transaction: transaction).body(signedBy: authority)
      #expect(await service.answer(body: body).verdict == .deferred)
    }
    try Self.createFacts(in: folder)
    try service.store.makeRetriesDue()
    #expect(await service.retryUndecided(olderThan: 0, isStopped: { !decided.all.isEmpty }) == 1)
    #expect(decided.all.count == 1)
    #expect(await service.retryUndecided(olderThan: 0) == 2)
    #expect(Set(decided.all) == ["91", "92", "93"])
  }

  @Test func reckonServeStartsWithAWarningWhileAFactFileIsMissing() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(URL(string: "http://127.0.0.1:1")!, authority)
    let child = try ServeChild.launch(binary, folder: folder)
    defer { kill(child.pid, SIGKILL) }
    let port = await child.port(within: 20)
    // SIGKILL, not SIGTERM: a SIGTERM right after the `listening` line can land before serve
    // handles it, and this test only needs to see that it started.
    await child.kill()
    #expect(port != nil, "\(child.logText)")
    let warning = child.logText.split(separator: "\n").first {
      $0.contains(#""event":"startup""#) && $0.contains("fact source 'app-db' cannot be opened now")
    }
    #expect(warning != nil, "\(child.logText)")
  }

  @Test func aQueryThatDoesNotCompileAgainstThePresentFileStillStopsStartUp() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let authority = try LocalCertificateAuthority()
    let folder = try Self.workspace(URL(string: "http://127.0.0.1:1")!, authority)
    try Self.createFacts(in: folder)
    let config = folder.appendingPathComponent("reckon.json")
    let text = try String(contentsOf: config, encoding: .utf8)
    try text.replacingOccurrences(of: "FROM customers", with: "FROM customer")
      .write(to: config, atomically: true, encoding: .utf8)
    let (status, logged) = try await SendProcessTests.sendOnce(binary, config: config)
    #expect(status != 0)
    #expect(logged.contains("factSources[0].queries.customer"), "\(logged)")
    #expect(logged.contains("no such table: customer"), "\(logged)")
  }
}

/// Lines collected from any thread.
final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
  var all: [String] { lock.withLock { lines } }
}
