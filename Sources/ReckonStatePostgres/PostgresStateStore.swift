import Foundation
import ReckonState
import ReckonSupport

/// The state in a PostgreSQL database, which several Reckon instances share: requests,
/// decisions, the outbox, delivery attempts, outcomes, and the pacing, holds and claims every
/// instance keeps to. What SQLite gets from one writer at a time, this backend gets from the
/// database: unique keys (a notification recorded once, a request decided once), row revisions
/// (an entry saved from a stale read is refused), and transaction-scoped advisory locks around
/// the reads a write depends on (a repeat found, or not, while another instance records the
/// same transaction). One connection per store, serialized by a lock.
public final class PostgresStateStore: @unchecked Sendable {
  /// The schema version this build writes.
  public static var newestSchema: Int { PostgresSchema.migrations.count }

  /// The database's address.
  public let address: PostgresAddress
  /// The store's rules for the requests recorded: which type asks for a reply, and its window.
  public let rules: ReplyRules
  /// Who this store is among the instances sharing the database, for the claims it holds.
  let holder = UUID().uuidString
  let connection: PostgresConnection
  private let lock = NSRecursiveLock()
  /// The certificates packed notifications refer to, as read or written here.
  let certificateCache = CertificateCache()
  /// `rules.requestTypes` as an SQL list of string literals, for the queries that select
  /// requests (`notification_type IN (…)`).
  let requestTypeSQL: String

  /// How long a claim on a request keeps other deciders away when its holder never releases it
  /// (the instance died while deciding): deciding takes milliseconds, and the request's retry
  /// is then another instance's to make.
  static let claimLifetime: TimeInterval = 120

  /// Connects to the database at `address`, creates or migrates its schema (under an advisory
  /// lock, so instances starting together migrate once), and refuses a database another
  /// program's tables are in or a newer Reckon migrated. With `durability` `.full`, every
  /// commit waits for the server's flush to disk whatever the server's default. `access`
  /// `.existing` refuses a database without Reckon's schema; `.readOnly` also migrates nothing
  /// and makes every transaction read-only.
  public init(
    address: PostgresAddress, rules: ReplyRules, durability: StateDurability = .normal,
    access: StateAccess = .create
  ) throws(StateError) {
    self.address = address
    self.rules = rules
    requestTypeSQL = rules.requestTypesSQL
    connection = try PostgresConnection(address: address)
    if durability == .full { try connection.execute("SET synchronous_commit = on") }
    if access != .create {
      let found = try PostgresSchema.version(connection, creating: false)
      guard found > 0 else {
        // No table at all is a database made for Reckon and not used yet; tables of another
        // program's are not Reckon's to make its own among.
        let tables =
          try connection.query(
            "SELECT count(*)::bigint FROM pg_tables WHERE schemaname = current_schema()"
          ).first?.int(0) ?? 0
        throw tables == 0
          ? .noStateYet(path: address.description) : .notAStateDatabase(path: address.description)
      }
      if access == .readOnly {
        guard found == PostgresSchema.migrations.count else {
          throw found < PostgresSchema.migrations.count
            ? .olderSchema(
              path: address.description, found: found, needed: PostgresSchema.migrations.count)
            : .newerSchema(
              path: address.description, found: found, known: PostgresSchema.migrations.count)
        }
        try connection.execute("SET default_transaction_read_only = on")
        return
      }
    }
    try PostgresSchema.migrate(connection, now: Date())
  }

  /// The schema version the database is at.
  public func schemaVersion() throws(StateError) -> Int {
    try locked { () throws(StateError) in try PostgresSchema.version(connection) }
  }

  /// Records a notification once, as `SQLiteStateStore.recordNotification` does; copies that two
  /// instances receive at once are told apart by the unique key on its UUID, and a repeat's
  /// request is looked for under a lock on its transaction.
  public func recordNotification(_ record: NotificationRecord) throws(StateError)
    -> RecordResult
  {
    // Packed before taking the lock, which the instance's other writes wait for.
    let packed = PackedNotification(record.rawNotification)
    return try locked { () throws(StateError) in
      let stored = try storedNotification(record.rawNotification, packed: packed)
      return try connection.transaction { () throws(StateError) in
        if let transactionId = record.transactionId {
          try lockTransaction(transactionId)
        }
        if let existing = try connection.query(
          "SELECT id, imported FROM requests WHERE notification_uuid = $1 FOR UPDATE",
          [.text(record.notificationUUID)]
        ).first, let id = existing.int(0) {
          guard existing.bool(1) == true, !record.imported, rules.asksForReply(record) else {
            return .duplicate(requestId: id)
          }
          return try takeLive(importedId: id, record, stored: stored)
        }
        let original = try openRequest(repeatedBy: record)
        guard
          let id = try connection.query(
            """
            INSERT INTO requests (notification_uuid, notification_type, transaction_id,
              original_transaction_id, app_account_token, bundle_id, environment, received_at,
              deadline, raw_notification, raw_format, repeat_of, imported, price, currency,
              reason, product_type, summarized)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
              $18)
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING id
            """,
            [
              .text(record.notificationUUID), .text(record.notificationType),
              .optional(record.transactionId), .optional(record.originalTransactionId),
              .optional(record.appAccountToken), .text(record.bundleId), .text(record.environment),
              .date(record.receivedAt), .date(rules.deadline(of: record)),
              .bytes(stored.bytes), .integer(stored.format),
              original.map { .integer($0) } ?? .null(.int8), .boolean(record.imported),
            ] + Self.summaryValues(record.summary)
          ).first?.int(0)
        else {
          // Another instance recorded a copy between the look and the insert.
          let id = try connection.query(
            "SELECT id FROM requests WHERE notification_uuid = $1", [.text(record.notificationUUID)]
          ).first?.int(0)
          return .duplicate(requestId: id ?? 0)
        }
        return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
      }
    }
  }

  /// Holds, until the transaction ends, every other instance's write about `transactionId`: what
  /// is a repeat, and which request an outcome attaches to, is read and written as one step.
  func lockTransaction(_ transactionId: String) throws(StateError) {
    try connection.query(
      "SELECT pg_advisory_xact_lock(hashtextextended($1, \(PostgresSchema.lockClass)))",
      [.text(transactionId)])
  }

  /// Makes the imported request `id` the live `record` Apple delivered.
  private func takeLive(
    importedId id: Int64, _ record: NotificationRecord, stored: (bytes: Data, format: Int64)
  ) throws(StateError) -> RecordResult {
    let original = try openRequest(repeatedBy: record)
    try connection.query(
      """
      UPDATE requests SET imported = false, received_at = $1, deadline = $2,
        raw_notification = $3, raw_format = $4, repeat_of = $5, price = $6, currency = $7,
        reason = $8, product_type = $9, summarized = $10
      WHERE id = $11
      """,
      [
        .date(record.receivedAt), .date(rules.deadline(of: record)), .bytes(stored.bytes),
        .integer(stored.format), original.map { .integer($0) } ?? .null(.int8),
      ] + Self.summaryValues(record.summary) + [.integer(id)])
    return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
  }

  /// The `price, currency, reason, product_type, summarized` values of a request row.
  static func summaryValues(_ summary: RequestSummary?) -> [PostgresValue] {
    [
      summary?.price.map { .integer($0) } ?? .null(.int8), .optional(summary?.currency),
      .optional(summary?.reason), .optional(summary?.productType), .boolean(summary != nil),
    ]
  }

  /// The request `record` repeats, by the rules `SQLiteStateStore` documents: the latest open
  /// request of its app and transaction, unless the store gave its verdict on it before
  /// sending `record`.
  private func openRequest(repeatedBy record: NotificationRecord) throws(StateError)
    -> Int64?
  {
    guard rules.asksForReply(record), let transactionId = record.transactionId else { return nil }
    guard
      let open = try connection.query(
        """
        SELECT id, deadline FROM requests WHERE transaction_id = $1 AND bundle_id = $2
          AND environment = $3 AND notification_type IN (\(requestTypeSQL))
          AND repeat_of IS NULL AND NOT imported AND received_at <= $4 AND deadline > $4
        ORDER BY received_at DESC LIMIT 1
        """,
        [
          .text(transactionId), .text(record.bundleId), .text(record.environment),
          .date(record.receivedAt),
        ]
      ).first, let id = open.int(0), let deadline = open.date(1)
    else { return nil }
    let opened = rules.requestOpened(deadline: deadline, environment: record.environment)
    let verdicts = try connection.query(
      """
      SELECT 1 FROM outcomes WHERE request_id = $1 AND type IN (\(OutcomeType.sqlList(OutcomeType.verdicts)))
        AND occurred_at >= $2 AND occurred_at <= $3
      LIMIT 1
      """, [.integer(id), .date(opened), .date(record.askedAt)])
    return verdicts.isEmpty ? id : nil
  }

  /// Writes a decision and, when given, its outbox entry in one transaction; a request decided
  /// already (by this instance or another) keeps its first decision, by the unique key on
  /// `decisions.request_id`.
  public func recordDecision(
    _ decision: DecisionRecord, requestId: Int64, enqueue: OutboxEnqueue?, sentAt: Date?
  ) throws(StateError) -> DecisionReceipt {
    let json = DecisionJSON(facts: decision.factsJSON, explanation: decision.explanationJSON)
      .stored
    return try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        guard
          let decisionId = try connection.query(
            """
            INSERT INTO decisions (request_id, decided_at, policy_name, policy_version,
              policy_sha256, action, rule, reason, body, facts_json, explanation_json, json_format)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            ON CONFLICT (request_id) DO NOTHING RETURNING id
            """,
            [
              .integer(requestId), .date(decision.decidedAt), .text(decision.policyName),
              .optional(decision.policyVersion), .text(decision.policySHA256),
              .text(decision.action), .text(decision.rule), .optional(decision.reason),
              .optional(decision.body), .bytes(json.facts), .optional(json.explanation),
              .integer(DecisionJSON.format),
            ]
          ).first?.int(0)
        else {
          let first = try connection.query(
            """
            SELECT d.id, e.id FROM decisions d LEFT JOIN outbox e ON e.decision_id = d.id
            WHERE d.request_id = $1
            """, [.integer(requestId)]
          ).first
          return DecisionReceipt(
            decisionId: first?.int(0) ?? 0, entryId: first?.int(1), alreadyDecided: true)
        }
        guard let enqueue else { return DecisionReceipt(decisionId: decisionId, entryId: nil) }
        let entryId = try insertEntry(
          enqueue, decisionId: decisionId, requestId: requestId, now: decision.decidedAt,
          sentAt: sentAt)
        return DecisionReceipt(decisionId: decisionId, entryId: entryId)
      }
    }
  }

  /// How many requests for `transactionId` (of `app` when given) were received before `date`,
  /// repeats and outcome notifications not counted.
  public func requestCount(transactionId: String, app: AppKey?, before date: Date)
    throws(StateError) -> Int
  {
    try count(
      """
      SELECT COUNT(*) FROM requests
      WHERE transaction_id = $1 AND received_at < $2 AND repeat_of IS NULL
        AND notification_type IN (\(requestTypeSQL))
        AND ($3::text IS NULL OR (bundle_id = $3 AND environment = $4))
      """,
      [
        .text(transactionId), .date(date), .optional(app?.bundleId), .optional(app?.environment),
      ])
  }

  /// How many refunds the store reported for `customer` before `date`, of `app` when given; a
  /// refund whose app is unknown counts for every app.
  public func refundCount(customer: CustomerKey, app: AppKey?, before date: Date)
    throws(StateError) -> Int
  {
    let (column, value): (String, String)
    switch customer {
    case .appAccountToken(let token):
      (column, value) = ("app_account_token", UUIDText.accountKey(token))
    case .originalTransactionId(let id): (column, value) = ("original_transaction_id", id)
    }
    return try count(
      """
      SELECT COUNT(*) FROM outcomes
      WHERE \(column) = $1 AND type IN (\(OutcomeType.sqlList(OutcomeType.refunds))) AND occurred_at < $2
        AND ($3::text IS NULL OR environment IS NULL OR (bundle_id = $3 AND environment = $4))
      """,
      [.text(value), .date(date), .optional(app?.bundleId), .optional(app?.environment)])
  }

  /// Attaches a store outcome to the latest request for its transaction (of `app` when given),
  /// as `SQLiteStateStore.attachOutcome` does, under the transaction's lock.
  public func attachOutcome(
    _ type: OutcomeType, notificationUUID: String, transactionId: String, app: AppKey?,
    originalTransactionId: String?, appAccountToken: String?, occurredAt: Date
  ) throws(StateError) -> Int64? {
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) -> Int64? in
        try lockTransaction(transactionId)
        let request = try connection.query(
          """
          SELECT id, bundle_id, environment, app_account_token FROM requests
          WHERE transaction_id = $1
            AND repeat_of IS NULL AND notification_type IN (\(requestTypeSQL))
            AND ($2::text IS NULL OR (bundle_id = $2 AND environment = $3))
          ORDER BY received_at DESC LIMIT 1
          """,
          [.text(transactionId), .optional(app?.bundleId), .optional(app?.environment)]
        ).first
        let requestId = request?.int(0)
        try connection.query(
          """
          INSERT INTO outcomes (notification_uuid, request_id, type, transaction_id,
            original_transaction_id, app_account_token, occurred_at, bundle_id, environment)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
          ON CONFLICT (notification_uuid) DO NOTHING
          """,
          [
            .text(notificationUUID), requestId.map { .integer($0) } ?? .null(.int8),
            .text(type.rawValue), .text(transactionId), .optional(originalTransactionId),
            // An outcome that does not name its customer (Google's voided purchases) is the
            // customer's of the request it answers.
            .optional((appAccountToken ?? request?.text(3)).map(UUIDText.accountKey)),
            .date(occurredAt),
            .optional(app?.bundleId ?? request?.text(1)),
            .optional(app?.environment ?? request?.text(2)),
          ])
        guard connection.changes > 0, type.isVerdict,
          let requestId, let environment = request?.text(2)
        else { return requestId }
        try reopenRepeats(
          of: requestId, sentAfter: occurredAt, window: rules.window(environment: environment))
        return requestId
      }
    }
  }

  /// The repeats of `requestId` the store sent after its verdict on it become a request of
  /// their own (the first) and its repeats, as `SQLiteStateStore` documents.
  private func reopenRepeats(of requestId: Int64, sentAfter verdict: Date, window: TimeInterval)
    throws(StateError)
  {
    var reopened: Int64?
    for row in try connection.query(
      "SELECT id, deadline FROM requests WHERE repeat_of = $1 ORDER BY received_at, id",
      [.integer(requestId)])
    {
      guard let id = row.int(0), let deadline = row.date(1),
        deadline.addingTimeInterval(-window) >= verdict
      else { continue }
      try connection.query(
        "UPDATE requests SET repeat_of = $1 WHERE id = $2",
        [reopened.map { .integer($0) } ?? .null(.int8), .integer(id)])
      if reopened == nil { reopened = id }
    }
  }

  /// The outcomes attached to a request, oldest first.
  public func outcomes(requestId: Int64) throws(StateError) -> [OutcomeType] {
    try locked { () throws(StateError) in
      try connection.query(
        "SELECT type FROM outcomes WHERE request_id = $1 ORDER BY occurred_at, id",
        [.integer(requestId)]
      ).compactMap { $0.text(0).flatMap(OutcomeType.init(rawValue:)) }
    }
  }

  /// The single number `sql` selects.
  func count(_ sql: String, _ values: [PostgresValue] = []) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      Int(try connection.query(sql, values).first?.int(0) ?? 0)
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
