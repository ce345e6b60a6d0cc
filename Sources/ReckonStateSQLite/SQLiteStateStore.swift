import Foundation
import ReckonSQLite
import ReckonState
import ReckonSupport

/// The state database: requests, decisions, the outbox, delivery attempts and outcomes, in one
/// SQLite file (WAL, busy timeout, prepared statements, forward migrations). One connection,
/// serialized by a lock, so it is safe to share between tasks and threads.
public final class SQLiteStateStore: @unchecked Sendable {
  /// The schema version this build writes; opening an older file to write migrates it here.
  public static var newestSchema: Int { StateSchema.migrations.count }
  /// The oldest schema version this build reads without changing the file.
  public static var oldestReadableSchema: Int { StateSchema.oldestReadable }

  /// The database file.
  public let path: String
  let connection: SQLiteConnection
  private let lock = NSRecursiveLock()
  /// Checkpoints the WAL off the request path, when asked for (see `WALCheckpointer`).
  let checkpointer: WALCheckpointer?
  /// The schema version the store reads: the newest once migrated; a read-only open reads an
  /// older file as it is.
  let readVersion: Int
  /// The pace and 429 holds of each app: one process sends from an embedded database (the
  /// sender lease is a lock file), so they live in memory.
  let pacing = RateLimiter()
  /// The requests being decided in this process.
  let claims = RequestClaims()
  /// The certificates packed notifications refer to, as read or written here.
  let certificateCache = CertificateCache()
  /// Reads the gauges beside the store's connection, so they hold up no write.
  let gaugeReader: GaugeReader
  /// The store's rules for the requests recorded: which type asks for a reply, and its window.
  public let rules: ReplyRules
  /// `rules.requestTypes` as an SQL list of string literals, for the queries that select
  /// requests (`notification_type IN (…)`).
  let requestTypeSQL: String

  /// What opening may do to the file.
  public typealias Access = StateAccess

  /// Opens the database at `path` as `access` allows (by default creating and migrating as
  /// needed). With `backgroundCheckpoints`, WAL checkpoints run on a queue of their own instead
  /// of inside whichever commit crosses SQLite's threshold (the webhook uses it to keep latency
  /// even).
  public init(
    path: String, rules: ReplyRules, durability: StateDurability = .normal,
    backgroundCheckpoints: Bool = false, access: Access = .create
  ) throws(StateError) {
    self.path = path
    self.rules = rules
    gaugeReader = GaugeReader(path: path)
    requestTypeSQL = rules.requestTypesSQL
    if access != .create {
      guard FileManager.default.fileExists(atPath: path) else { throw .noSuchFile(path: path) }
    } else {
      try Self.checkFolder(of: path)
    }
    var version = StateSchema.migrations.count
    do throws(StateError) {
      connection = try SQLiteConnection(
        path: path, synchronous: durability.rawValue, readOnly: access == .readOnly,
        setUpForWriting: false)
      // Checked before anything is written (the journal mode too), so another program's database
      // (`state.path` naming the app's own facts file, say) never gets our tables.
      let isNew = try StateSchema.isEmpty(connection)
      // An empty file (made ahead of the service, say) is one serve takes as new: not some
      // other program's database.
      if isNew, access != .create { throw StateError.noStateYet(path: path) }
      if !isNew {
        version = try StateSchema.version(connection)
        if access == .readOnly, version < StateSchema.oldestReadable {
          throw .olderSchema(path: path, found: version, needed: StateSchema.oldestReadable)
        }
      }
      if access != .readOnly {
        try connection.setUpForWriting(synchronous: durability.rawValue)
        try StateSchema.migrate(connection, now: Date().timeIntervalSince1970)
        version = StateSchema.migrations.count
      }
    } catch {
      throw Self.explained(error, path: path)
    }
    readVersion = version
    if backgroundCheckpoints {
      try connection.execute("PRAGMA wal_autocheckpoint=\(WALCheckpointer.fallbackPages)")
      checkpointer = WALCheckpointer(path: path, synchronous: durability.rawValue)
    } else {
      checkpointer = nil
    }
  }

  /// SQLite's "unable to open database file" said plainly when the cause is a folder this user
  /// cannot write: a WAL database needs its `-wal` and `-shm` files beside it even to be read.
  static func explained(
    _ error: StateError, path: String,
    isWritable: (String) -> Bool = { FileManager.default.isWritableFile(atPath: $0) }
  ) -> StateError {
    guard error.description.contains("unable to open database file") else { return error }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard !isWritable(folder) else { return error }
    let name = URL(fileURLWithPath: path).lastPathComponent
    return .cannotOpen(
      path: path,
      message:
        "its folder \(folder) is not writable by this user, and SQLite keeps \(name)-wal and "
        + "\(name)-shm beside the file, even to read it: make the folder writable, or copy the "
        + "file to one that is")
  }

  /// Refuses `path` when it is a file another program made (it holds something, but not
  /// Reckon's tables), opening it read-only, so a command can say so before it puts anything
  /// beside it (the sender's lock file). A missing file passes: opening creates it.
  public static func checkIsOurs(path: String) throws(StateError) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL", readOnly: true)
    guard try !StateSchema.isEmpty(connection) else { return }
    _ = try StateSchema.version(connection)
  }

  /// The schema version the file is at.
  public func schemaVersion() throws(StateError) -> Int {
    try locked { () throws(StateError) in
      Int(try connection.query("SELECT MAX(version) FROM schema_migrations").first?.int(0) ?? 0)
    }
  }

  /// Records a notification once: a second call with the same UUID returns `.duplicate`, and a
  /// CONSUMPTION_REQUEST for a transaction whose earlier request is still before its deadline
  /// returns `.repeated`. A live CONSUMPTION_REQUEST already imported from Apple's history is
  /// recorded as live now (`.recorded` or `.repeated` under the imported id): Apple delivers
  /// again a request it has had no 200 for, and an import that found it first must not make
  /// the webhook ignore it.
  public func recordNotification(_ record: NotificationRecord) throws(StateError)
    -> RecordResult
  {
    // One write transaction from the look to the insert: two processes on one database (two
    // webhook instances) receiving copies at once must not both record them as new.
    // Packed before taking the lock, which every other request's writes wait for.
    let packed = PackedNotification(record.rawNotification)
    let result = try locked { () throws(StateError) in
      let stored = try storedNotification(record.rawNotification, packed: packed)
      return try connection.transaction { () throws(StateError) in
        try recordOnce(record, stored: stored)
      }
    }
    // A duplicate wrote nothing: no commit to count toward the next checkpoint, as before.
    if case .duplicate = result {} else { checkpointer?.committed() }
    return result
  }

  private func recordOnce(
    _ record: NotificationRecord, stored: (bytes: Data, format: Int64)
  ) throws(StateError) -> RecordResult {
    let existing = try connection.query(
      "SELECT id, imported FROM requests WHERE notification_uuid = ?",
      [.text(record.notificationUUID)])
    if let row = existing.first, let id = row.int(0) {
      guard row.int(1) == 1, !record.imported, rules.asksForReply(record) else {
        return .duplicate(requestId: id)
      }
      return try takeLive(importedId: id, record, stored: stored)
    }
    let original = try openRequest(repeatedBy: record)
    try connection.query(
      """
      INSERT INTO requests (notification_uuid, notification_type, transaction_id, original_transaction_id,
        app_account_token, bundle_id, environment, received_at, deadline, raw_notification, raw_format,
        repeat_of, imported, price, currency, reason, product_type, summarized)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(record.notificationUUID), .text(record.notificationType),
        .optional(record.transactionId),
        .optional(record.originalTransactionId), .optional(record.appAccountToken),
        .text(record.bundleId),
        .text(record.environment), .date(record.receivedAt), .date(rules.deadline(of: record)),
        .blob(stored.bytes), .integer(stored.format), original.map { .integer($0) } ?? .null,
        .integer(record.imported ? 1 : 0),
      ] + Self.summaryValues(record.summary))
    let id = connection.lastInsertRowID
    return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
  }

  /// Makes the imported request `id` the live `record` Apple delivered: received now, with the
  /// deadline counted as for any live request, and a repeat if an open request precedes it.
  private func takeLive(
    importedId id: Int64, _ record: NotificationRecord, stored: (bytes: Data, format: Int64)
  ) throws(StateError) -> RecordResult {
    let original = try openRequest(repeatedBy: record)
    try connection.query(
      """
      UPDATE requests SET imported = 0, received_at = ?, deadline = ?, raw_notification = ?,
        raw_format = ?, repeat_of = ?, price = ?, currency = ?, reason = ?, product_type = ?,
        summarized = ?
      WHERE id = ?
      """,
      [
        .date(record.receivedAt), .date(rules.deadline(of: record)), .blob(stored.bytes),
        .integer(stored.format), original.map { .integer($0) } ?? .null,
      ] + Self.summaryValues(record.summary) + [.integer(id)])
    return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
  }

  /// The `price, currency, reason, product_type, summarized` values of a request row.
  static func summaryValues(_ summary: RequestSummary?) -> [SQLiteValue] {
    [
      summary?.price.map { .integer($0) } ?? .null, .optional(summary?.currency),
      .optional(summary?.reason), .optional(summary?.productType),
      .integer(summary == nil ? 0 : 1),
    ]
  }

  /// The request `record` repeats: the latest CONSUMPTION_REQUEST of its app and transaction
  /// received by then and still before its deadline, unless Apple refunded or declined it
  /// before sending `record`. Apple can send one refund request several times under new UUIDs;
  /// a request after the deadline is a new one, and so is one Apple sent after its verdict on
  /// the last (the customer asked again). An imported request is never answered, so a live copy
  /// of it is decided as a request of its own.
  private func openRequest(repeatedBy record: NotificationRecord) throws(StateError)
    -> Int64?
  {
    guard rules.asksForReply(record), let transactionId = record.transactionId else { return nil }
    guard
      let open = try connection.query(
        """
        SELECT id, deadline FROM requests WHERE transaction_id = ? AND bundle_id = ?
          AND environment = ? AND notification_type IN (\(requestTypeSQL))
          AND repeat_of IS NULL AND imported = 0 AND received_at <= ? AND deadline > ?
        ORDER BY received_at DESC LIMIT 1
        """,
        [
          .text(transactionId), .text(record.bundleId), .text(record.environment),
          .date(record.receivedAt), .date(record.receivedAt),
        ]
      ).first, let id = open.int(0), let deadline = open.date(1)
    else { return nil }
    // The verdict must fall between Apple's first send of the open request and its send of
    // `record`: an outcome attaches to the latest request when it is stored, so an old one
    // (imported from history, or delivered again after a 500) can sit on a request it is not
    // about; and a copy Apple signed before its verdict but delivered after it (retried after
    // a 500) is still the same request. REFUND_REVERSED undoes an earlier refund: no verdict
    // on a request. A verdict that comes in after the new request is taken up by
    // `reopenRepeats` when it is attached.
    let opened = rules.requestOpened(deadline: deadline, environment: record.environment)
    let asked = record.askedAt
    let verdicts = try connection.query(
      """
      SELECT 1 FROM outcomes WHERE request_id = ? AND type IN (\(OutcomeType.sqlList(OutcomeType.verdicts)))
        AND occurred_at >= ? AND occurred_at <= ?
      LIMIT 1
      """, [.integer(id), .date(opened), .date(asked)])
    return verdicts.isEmpty ? id : nil
  }

  /// Writes a decision and, when given, its outbox entry in one transaction: both or neither;
  /// with `sentAt`, the entry is written as sent then. The entry's body was checked against the
  /// store's rules when it became a `CheckedBody`.
  public func recordDecision(
    _ decision: DecisionRecord, requestId: Int64, enqueue: OutboxEnqueue?, sentAt: Date?
  ) throws(StateError) -> DecisionReceipt {
    defer { checkpointer?.committed() }
    // Compressed before taking the lock, which every other request's writes wait for.
    let json = DecisionJSON(facts: decision.factsJSON, explanation: decision.explanationJSON)
      .stored
    return try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        // One decision per request, checked in the write transaction: a second service on the
        // database (a standby retrying undecided requests) must not queue a second reply.
        if let first = try connection.query(
          """
          SELECT d.id, (SELECT e.id FROM outbox e WHERE e.decision_id = d.id)
          FROM decisions d WHERE d.request_id = ? ORDER BY d.id LIMIT 1
          """, [.integer(requestId)]
        ).first, let decisionId = first.int(0) {
          return DecisionReceipt(
            decisionId: decisionId, entryId: first.int(1), alreadyDecided: true)
        }
        try connection.query(
          """
          INSERT INTO decisions (request_id, decided_at, policy_name, policy_version, policy_sha256, action, rule,
            reason, body, facts_json, explanation_json, json_format)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .integer(requestId), .date(decision.decidedAt), .text(decision.policyName),
            .optional(decision.policyVersion),
            .text(decision.policySHA256), .text(decision.action), .text(decision.rule),
            .optional(decision.reason),
            decision.body.map { .blob($0) } ?? .null, .blob(json.facts),
            json.explanation.map { .blob($0) } ?? .null, .integer(DecisionJSON.format),
          ])
        let decisionId = connection.lastInsertRowID
        guard let enqueue else { return DecisionReceipt(decisionId: decisionId, entryId: nil) }
        let entryId = try insertEntry(
          enqueue, decisionId: decisionId, requestId: requestId, now: decision.decidedAt,
          sentAt: sentAt)
        return DecisionReceipt(decisionId: decisionId, entryId: entryId)
      }
    }
  }

  /// How many CONSUMPTION_REQUESTs for `transactionId` (of `app` when given: a Sandbox test of
  /// the same transaction id is not a Production request) were received before `date` (for
  /// `history.*` facts); repeats of an open request are the same request and are not counted,
  /// nor are the outcome notifications recorded beside them.
  public func requestCount(transactionId: String, app: AppKey? = nil, before date: Date)
    throws(StateError) -> Int
  {
    try locked { () throws(StateError) in
      Int(
        try connection.query(
          """
          SELECT COUNT(*) FROM requests
          WHERE transaction_id = ?1 AND received_at < ?2 AND repeat_of IS NULL
            AND notification_type IN (\(requestTypeSQL))
            AND (?3 IS NULL OR (bundle_id = ?3 AND environment = ?4))
          """,
          [
            .text(transactionId), .date(date), .optional(app?.bundleId),
            .optional(app?.environment),
          ]
        ).first?.int(0) ?? 0)
    }
  }

  /// How many refunds Apple reported for `customer` before `date` (for `history.*` facts), of
  /// `app` when given: a Sandbox refund is not a Production one. A refund whose app is unknown
  /// (recorded before Reckon kept it, with nothing to tell it from) counts for every app.
  public func refundCount(customer: CustomerKey, app: AppKey? = nil, before date: Date)
    throws(StateError) -> Int
  {
    let (column, value): (String, String)
    switch customer {
    case .appAccountToken(let token):
      (column, value) = ("app_account_token", UUIDText.accountKey(token))
    case .originalTransactionId(let id): (column, value) = ("original_transaction_id", id)
    }
    return try locked { () throws(StateError) in
      Int(
        try connection.query(
          """
          SELECT COUNT(*) FROM \(outcomesWithApps)
          WHERE \(column) = ?1 AND +type IN (\(Self.refundTypesSQL)) AND occurred_at < ?2
            AND (?3 IS NULL OR environment IS NULL OR (bundle_id = ?3 AND environment = ?4))
          """,
          [
            .text(value), .date(date), .optional(app?.bundleId),
            .optional(app?.environment),
          ]
        ).first?.int(0) ?? 0)
    }
  }

  /// The refund outcome types as an SQL list. `refundCount` tests them as `+type`, so its
  /// lookup goes through the customer alone (a customer has few outcomes): a list that also
  /// drives the index lookup costs SQLite a temporary b-tree on every call.
  private static let refundTypesSQL = OutcomeType.sqlList(OutcomeType.refunds)

  /// `outcomes` with each row's `bundle_id` and `environment`: its own columns, or in a file
  /// older than `StateSchema.outcomeApps` (read-only, as it is) derived as that migration
  /// backfills them, from the outcome's own notification, else from the request it attached to.
  var outcomesWithApps: String {
    guard readVersion < StateSchema.outcomeApps else { return "outcomes" }
    return """
      (SELECT o.type, o.transaction_id, o.app_account_token, o.original_transaction_id,
        o.occurred_at,
        COALESCE(own.bundle_id, r.bundle_id) AS bundle_id,
        COALESCE(own.environment, r.environment) AS environment
      FROM outcomes o LEFT JOIN requests own ON own.notification_uuid = o.notification_uuid
        LEFT JOIN requests r ON r.id = o.request_id)
      """
  }

  /// Attaches a REFUND / REFUND_DECLINED / REFUND_REVERSED notification to the latest request for
  /// its transaction (if any; not a repeat, which has no decision of its own, nor an earlier
  /// outcome notification), of `app` when given: a Production refund is never credited to a
  /// Sandbox request that shares its transaction id. The outcome keeps `app`, or without it the
  /// app of the request it attached to, for `refundCount`. Returns the request it attached to;
  /// a repeated UUID changes nothing.
  @discardableResult
  public func attachOutcome(
    _ type: OutcomeType, notificationUUID: String, transactionId: String,
    app: AppKey? = nil, originalTransactionId: String? = nil,
    appAccountToken: String? = nil, occurredAt: Date
  ) throws(StateError) -> Int64? {
    // The request is looked up inside the write transaction, so one removed meanwhile (`prune`
    // in another process) is not pointed at.
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) -> Int64? in
        let request = try connection.query(
          """
          SELECT id, bundle_id, environment, app_account_token FROM requests
          WHERE transaction_id = ?1
            AND repeat_of IS NULL AND notification_type IN (\(requestTypeSQL))
            AND (?2 IS NULL OR (bundle_id = ?2 AND environment = ?3))
          ORDER BY received_at DESC LIMIT 1
          """,
          [
            .text(transactionId), .optional(app?.bundleId),
            .optional(app?.environment),
          ]
        ).first
        let requestId = request?.int(0)
        try connection.query(
          """
          INSERT OR IGNORE INTO outcomes (notification_uuid, request_id, type, transaction_id, original_transaction_id,
            app_account_token, occurred_at, bundle_id, environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(notificationUUID), requestId.map { .integer($0) } ?? .null,
            .text(type.rawValue), .text(transactionId),
            .optional(originalTransactionId),
            // An outcome that does not name its customer (Google's voided purchases) is the
            // customer's of the request it answers.
            .optional((appAccountToken ?? request?.text(3)).map(UUIDText.accountKey)),
            .date(occurredAt), .optional(app?.bundleId ?? request?.text(1)),
            .optional(app?.environment ?? request?.text(2)),
          ])
        guard connection.changes > 0, type.isVerdict,
          let requestId,
          let environment = request?.text(2)
        else { return requestId }
        try reopenRepeats(
          of: requestId, sentAfter: occurredAt, window: rules.window(environment: environment))
        return requestId
      }
    }
  }

  /// The repeats of `requestId` that Apple sent after its verdict on it (which came in late:
  /// Apple retries an outcome it got no 200 for) were the customer asking again, as
  /// `openRequest` would have seen with the verdict in hand: the first becomes a request of its
  /// own, left undecided for the retry of undecided requests to decide, and the later ones its
  /// repeats.
  private func reopenRepeats(of requestId: Int64, sentAfter verdict: Date, window: TimeInterval)
    throws(StateError)
  {
    var reopened: Int64?
    for row in try connection.query(
      "SELECT id, deadline FROM requests WHERE repeat_of = ? ORDER BY received_at, id",
      [.integer(requestId)])
    {
      guard let id = row.int(0), let deadline = row.date(1),
        deadline.addingTimeInterval(-window) >= verdict
      else { continue }
      try connection.query(
        "UPDATE requests SET repeat_of = ? WHERE id = ?",
        [reopened.map { .integer($0) } ?? .null, .integer(id)])
      if reopened == nil { reopened = id }
    }
  }

  /// The outcomes attached to a request, oldest first.
  public func outcomes(requestId: Int64) throws(StateError) -> [OutcomeType] {
    try locked { () throws(StateError) in
      try connection.query(
        "SELECT type FROM outcomes WHERE request_id = ? ORDER BY occurred_at", [.integer(requestId)]
      )
      .compactMap { $0.text(0).flatMap(OutcomeType.init(rawValue:)) }
    }
  }

  /// Runs `body` holding the connection lock.
  @discardableResult
  func locked<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
