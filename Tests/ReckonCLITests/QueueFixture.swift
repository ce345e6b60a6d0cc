import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A folder with a `reckon.json` whose state database holds outbox entries, for running
/// `reckon queue` against.
struct QueueFixture {
  /// The folder.
  let folder: String
  /// When the entries' requests were received (and the held entry was held).
  let received: Date

  var configuration: String { folder + "/reckon.json" }
  var statePath: String { folder + "/reckon-state.sqlite" }

  static let body =
    #"{"consumptionPercentage":25000,"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true}"#

  /// Entry 1 held for review, entry 2 pending, both with `body`; `statePath` in the
  /// configuration points at `state` (relative to the folder) when given.
  init(state: String? = nil, body: String = Self.body, facts: String = "[]") throws {
    folder =
      TestScratch.folder.appendingPathComponent("reckon-queue-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // Whole seconds, so the times print as they were stored.
    received = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 60)
    let store = try SQLiteStateStore(path: folder + "/reckon-state.sqlite", rules: .appStore)
    try Self.enqueue(
      in: store, at: received, transaction: "2001", hold: true, body: body, facts: facts)
    try Self.enqueue(
      in: store, at: received, transaction: "2002", hold: false, body: body, facts: facts)
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let json = """
      {"apps": [{"bundleId": "com.example", "appAppleId": 1234567890, "environment": "Production", "policy": "\(policy)"}],
       "state": {"path": "\(state ?? "reckon-state.sqlite")"}}
      """
    try Data(json.utf8).write(to: URL(fileURLWithPath: configuration))
  }

  /// Runs `reckon queue ARGUMENTS --config reckon.json`.
  func queue(_ arguments: [String]) async throws -> ReckonBinary.Run {
    try await ReckonBinary.run(["queue"] + arguments + ["--config", configuration])
  }

  /// Adds entries Apple accepted, one per transaction, received `earlier` seconds before the
  /// fixture's entries so their deadlines come first.
  func addSent(transactions: [String], earlier: TimeInterval) throws {
    let store = try SQLiteStateStore(path: statePath, rules: .appStore)
    let at = received.addingTimeInterval(-earlier)
    for transaction in transactions {
      var entry = try store.entry(
        id: try Self.enqueue(in: store, at: at, transaction: transaction, hold: false))
      _ = entry.poll(now: at)
      _ = entry.delivered(
        .answered(.init(status: 202)), now: at,
        backoff: Backoff(initial: 30, maximum: 60, random: { 0 }))
      try store.save(&entry, now: at)
    }
  }

  /// Adds a pending entry for `transaction` in the Sandbox, beside the Production ones.
  @discardableResult
  func addSandbox(transaction: String) throws -> Int64 {
    try Self.enqueue(
      in: try SQLiteStateStore(path: statePath, rules: .appStore), at: received,
      transaction: transaction,
      hold: false,
      environment: .sandbox)
  }

  /// Postpones the pending entries to `until`, as the sender does during a 429 or a pause.
  func postponePending(until: Date) throws {
    try SQLiteStateStore(path: statePath, rules: .appStore).postponePending(
      AppStoreApp(bundleId: "com.example", environment: .production).key, until: until, now: Date())
  }

  /// Pauses the fixture's app as the sender does after a credentials problem.
  func pauseApp(until: Date, reason: String) throws {
    try SQLiteStateStore(path: statePath, rules: .appStore).pause(
      AppStoreApp(bundleId: "com.example", environment: .production).key, until: until,
      reason: reason)
  }

  /// The entry's body as stored.
  func body(_ id: Int64) throws -> String {
    String(
      decoding: try SQLiteStateStore(path: statePath, rules: .appStore).entry(id: id).body,
      as: UTF8.self)
  }

  @discardableResult
  static func enqueue(
    in store: any StateStore, at date: Date, transaction: String, hold: Bool, body: String = body,
    environment: AppStoreEnvironment = .production, facts: String = "[]"
  ) throws -> Int64 {
    let record = NotificationRecord(
      notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
      transactionId: transaction, bundleId: "com.example", environment: environment.rawValue,
      receivedAt: date, rawNotification: Data("{}".utf8))
    let request = try store.recordNotification(record).requestId
    let decision = DecisionRecord(
      policyName: "test", policyVersion: nil, policySHA256: String(repeating: "a", count: 64),
      action: hold ? "hold" : "respond", rule: "r", reason: nil, body: Data(body.utf8),
      factsJSON: Data(facts.utf8), explanationJSON: nil, decidedAt: date)
    let deadline = ReplyRules.appStore.deadline(of: record)
    let enqueue = OutboxEnqueue(
      app: AppStoreApp(bundleId: "com.example", environment: environment).key,
      transactionId: transaction,
      body: try CheckedBody(appStore: Data(body.utf8), context: .init()), deadline: deadline,
      holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
    return try #require(
      try store.recordDecision(decision, requestId: request, enqueue: enqueue).entryId)
  }
}
