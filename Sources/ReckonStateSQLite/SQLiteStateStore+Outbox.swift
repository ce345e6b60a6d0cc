import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore {
  static let entryColumns = """
    id, decision_id, request_id, bundle_id, environment, transaction_id, product_type, ownership_type, body,
    state, state_at, state_reason, deadline, attempts, interrupted_sends, last_status, last_error, revision,
    created_at, advanced_commerce
    """

  /// `entryColumns` as this file has them: one read-only from before schema 9 has no
  /// `advanced_commerce`, and held no entry for such a transaction (the decision refused it).
  var entryColumns: String {
    readVersion >= StateSchema.outboxAdvancedCommerce
      ? Self.entryColumns
      : Self.entryColumns.replacingOccurrences(
        of: "created_at, advanced_commerce", with: "created_at, 0 AS advanced_commerce")
  }

  func insertEntry(
    _ enqueue: OutboxEnqueue, decisionId: Int64, requestId: Int64, now: Date, sentAt: Date? = nil
  ) throws(StateError) -> Int64 {
    let state: OutboxState =
      sentAt.map { .sent(at: $0) } ?? enqueue.holdUntil.map { .held(releaseAt: $0) }
      ?? .pending(notBefore: now)
    let context = try OutboxContextColumns(enqueue.body.context)
    try connection.query(
      """
      INSERT INTO outbox (decision_id, request_id, bundle_id, environment, transaction_id, product_type, ownership_type,
        body, state, state_at, deadline, release_at, attempts, last_status, created_at, updated_at,
        advanced_commerce)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .integer(decisionId), .integer(requestId), .text(enqueue.app.bundleId),
        .text(enqueue.app.environment),
        .text(enqueue.transactionId), .optional(context.productType),
        .optional(context.ownershipType), .blob(enqueue.body.bytes), .text(state.name),
        .date(state.time),
        .date(enqueue.deadline), .date(enqueue.holdUntil ?? now),
        .integer(0), sentAt == nil ? .null : .integer(202),
        .date(now), .date(sentAt ?? now), .integer(context.isAdvancedCommerce ? 1 : 0),
      ])
    return connection.lastInsertRowID
  }

  /// The entry with this id.
  public func entry(id: Int64) throws(StateError) -> OutboxEntry {
    let rows = try locked { () throws(StateError) in
      try connection.query("SELECT \(entryColumns) FROM outbox WHERE id = ?", [.integer(id)])
    }
    guard let row = rows.first else { throw .notFound(what: "outbox entry", id: id) }
    guard let entry = Self.entry(row) else {
      // There, but not as this Reckon writes one: said so, not taken for a missing entry.
      throw .unreadableRow(
        what: "outbox entry \(id)",
        reason: "its state '\(row.text(9) ?? "")' or another column is not one this Reckon reads")
    }
    return entry
  }

  /// States whose entries still go out or wait on an operator: listed before the rest. A failed
  /// entry is final for the sender but an operator can still retry or drop it. The index
  /// `outbox_by_listing` (migration 6) names the same states: a change here needs a new index.
  static let unfinishedStates = ["held", "pending", "sending", "failed"]

  /// Entries in the named states (all when empty): held, pending, sending and failed first, most
  /// urgent (oldest deadline) first; then the finished ones, latest deadline first, so a long
  /// history does not push what happened lately past the limit.
  public func entries(states: [String] = [], limit: Int = 1_000) throws(StateError)
    -> [OutboxEntry]
  {
    try locked { () throws(StateError) in
      var found: [OutboxEntry] = []
      for finished in [false, true] {
        let wanted =
          states.isEmpty
          ? [] : states.filter { Self.unfinishedStates.contains($0) != finished }
        guard found.count < limit, states.isEmpty || !wanted.isEmpty else { continue }
        found += try connection.query(
          Self.listing(finished: finished, states: wanted, columns: entryColumns),
          wanted.map { .text($0) } + [.integer(Int64(limit - found.count))]
        ).compactMap(Self.entry)
      }
      return found
    }
  }

  /// The query of one group of `entries`: it names the expression `outbox_by_listing` indexes, so
  /// SQLite reads the first `limit` entries off the index instead of sorting the outbox. The state
  /// filter is written `+state` so the planner does not trade that index for a scan.
  static func listing(finished: Bool, states: [String], columns: String = entryColumns) -> String {
    let unfinished = unfinishedStates.map { "'\($0)'" }.joined(separator: ", ")
    let filter =
      states.isEmpty ? "" : " AND +state IN (\(states.map { _ in "?" }.joined(separator: ", ")))"
    let order = finished ? "deadline DESC, id DESC" : "deadline, id"
    return """
      SELECT \(columns) FROM outbox
      WHERE (state NOT IN (\(unfinished))) = \(finished ? 1 : 0)\(filter)
      ORDER BY \(order) LIMIT ?
      """
  }

  /// How many entries are in the named states (all when empty).
  public func entryCount(states: [String] = []) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      let rows = try connection.query(
        "SELECT count(*) FROM outbox \(Self.stateFilter(states))", states.map { .text($0) })
      return Int(rows.first?.int(0) ?? 0)
    }
  }

  private static func stateFilter(_ states: [String]) -> String {
    states.isEmpty ? "" : "WHERE state IN (\(states.map { _ in "?" }.joined(separator: ", ")))"
  }

  /// Entries that need attention at `now`: held past release, pending past not-before, or past the deadline.
  public func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int)
    throws(StateError) -> [OutboxEntry]
  {
    try dueEntries(now: now, leaseLapsedBefore: leaseLapsedBefore, limit: limit, apps: nil)
  }

  /// The due entries of `apps` alone (all when nil).
  public func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int, apps: Set<AppKey>?)
    throws(StateError) -> [OutboxEntry]
  {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT \(entryColumns) FROM outbox
        WHERE ((state IN ('held', 'pending') AND state_at <= ?1) OR (state IN ('held', 'pending') AND deadline <= ?1)
          OR (state = 'sending' AND state_at < ?3))
          AND (?4 IS NULL OR instr(?4, char(10) || bundle_id || '|' || environment || char(10)) > 0
            OR (state IN ('held', 'pending') AND deadline <= ?1))
        ORDER BY deadline, id LIMIT ?2
        """,
        [
          .date(now), .integer(Int64(limit)), .date(leaseLapsedBefore),
          apps.map { .text(AppKey.lines($0)) } ?? .null,
        ]
      ).compactMap(Self.entry)
    }
  }

  /// The earliest time an unfinished entry needs attention, or nil when none is waiting.
  public func nextWake() throws(StateError) -> Date? { try nextWake(apps: nil) }

  /// The earliest time an unfinished entry of `apps` needs attention, or one of another app
  /// reaches its deadline; nil when none is waiting.
  public func nextWake(apps: Set<AppKey>?) throws(StateError) -> Date? {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT MIN(CASE
          WHEN ?1 IS NULL OR instr(?1, char(10) || bundle_id || '|' || environment || char(10)) > 0
          THEN MIN(state_at, deadline) ELSE deadline END)
        FROM outbox WHERE state IN ('held', 'pending')
        """, [apps.map { .text(AppKey.lines($0)) } ?? .null]
      ).first?.date(0)
    }
  }

  /// Writes the entry's state, and the attempt when given, in one transaction, if the stored
  /// entry is still the revision `entry` was read at; throws `changedConcurrently` otherwise.
  public func save(_ entry: inout OutboxEntry, attempt: DeliveryAttempt? = nil, now: Date)
    throws(StateError)
  {
    let written = entry
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.query(
          """
          UPDATE outbox SET body = ?, state = ?, state_at = ?, state_reason = ?, attempts = ?, interrupted_sends = ?,
            last_status = ?, last_error = ?, updated_at = ?, revision = revision + 1
          WHERE id = ? AND revision = ?
          """,
          [
            .blob(entry.body), .text(entry.state.name), .date(entry.state.time),
            .optional(entry.state.reason),
            .integer(Int64(entry.attempts)), .integer(Int64(entry.interruptedSends)),
            .optional(entry.lastStatus),
            .optional(entry.lastError), .date(now), .integer(entry.id), .integer(entry.revision),
          ])
        guard connection.changes == 1 else {
          let exists = try !connection.query(
            "SELECT 1 FROM outbox WHERE id = ?", [.integer(written.id)]
          ).isEmpty
          throw exists
            ? .changedConcurrently(entry: written.id)
            : .notFound(what: "outbox entry", id: written.id)
        }
        if let attempt { try insertAttempt(attempt) }
      }
    }
    entry.revision += 1
  }

  /// The recorded attempts of an entry, oldest first.
  public func attempts(entryId: Int64) throws(StateError) -> [DeliveryAttempt] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT entry_id, started_at, finished_at, http_status, error_code, error_message, result FROM attempts
        WHERE entry_id = ? ORDER BY id
        """, [.integer(entryId)]
      ).map { row in
        DeliveryAttempt(
          entryId: row.int(0) ?? 0, startedAt: row.date(1) ?? .distantPast, finishedAt: row.date(2),
          httpStatus: row.int(3).map(Int.init), errorCode: row.int(4).map(Int.init),
          errorMessage: row.text(5),
          result: row.text(6) ?? "")
      }
    }
  }

  private func insertAttempt(_ attempt: DeliveryAttempt) throws(StateError) {
    try connection.query(
      """
      INSERT INTO attempts (entry_id, started_at, finished_at, http_status, error_code, error_message, result)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .integer(attempt.entryId), .date(attempt.startedAt), .optional(attempt.finishedAt),
        .optional(attempt.httpStatus),
        .optional(attempt.errorCode), .optional(attempt.errorMessage), .text(attempt.result),
      ])
  }

  static func entry(_ row: SQLiteRow) -> OutboxEntry? {
    guard let id = row.int(0), let decisionId = row.int(1), let requestId = row.int(2),
      let bundleId = row.text(3),
      let environment = row.text(4),
      let transactionId = row.text(5),
      let body = row.blob(8), let stateAt = row.date(10),
      let state = row.text(9).flatMap({ OutboxState(name: $0, at: stateAt, reason: row.text(11)) }),
      let deadline = row.date(12)
    else { return nil }
    let context = OutboxContextColumns(
      productType: row.text(6), ownershipType: row.text(7), isAdvancedCommerce: row.int(19) == 1
    ).context
    return OutboxEntry(
      id: id, decisionId: decisionId, requestId: requestId,
      app: AppKey(bundleId: bundleId, environment: environment),
      transactionId: transactionId, context: context, body: body, deadline: deadline, state: state,
      attempts: Int(row.int(13) ?? 0), interruptedSends: Int(row.int(14) ?? 0),
      lastStatus: row.int(15).map(Int.init),
      lastError: row.text(16), revision: row.int(17) ?? 0, createdAt: row.date(18))
  }
}
