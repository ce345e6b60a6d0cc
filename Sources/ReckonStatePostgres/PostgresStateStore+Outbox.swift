import Foundation
import ReckonState
import ReckonSupport

extension PostgresStateStore {
  static let entryColumns = """
    id, decision_id, request_id, bundle_id, environment, transaction_id, context::text, body,
    state, state_at, state_reason, deadline, attempts, interrupted_sends, last_status, last_error,
    revision, created_at
    """

  /// States whose entries still go out or wait on an operator, listed before the rest; the
  /// index `outbox_by_listing` names the same states.
  static let unfinishedStates = ["held", "pending", "sending", "failed"]

  func insertEntry(
    _ enqueue: OutboxEnqueue, decisionId: Int64, requestId: Int64, now: Date, sentAt: Date?
  ) throws(StateError) -> Int64 {
    let state: OutboxState =
      sentAt.map { .sent(at: $0) } ?? enqueue.holdUntil.map { .held(releaseAt: $0) }
      ?? .pending(notBefore: now)
    let rows = try connection.query(
      """
      INSERT INTO outbox (decision_id, request_id, bundle_id, environment, transaction_id,
        context, body, state, state_at, deadline, release_at, last_status, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14)
      RETURNING id
      """,
      [
        .integer(decisionId), .integer(requestId), .text(enqueue.app.bundleId),
        .text(enqueue.app.environment), .text(enqueue.transactionId),
        .text(Self.json(enqueue.body.context)), .bytes(enqueue.body.bytes), .text(state.name),
        .date(state.time), .date(enqueue.deadline), .date(enqueue.holdUntil ?? now),
        sentAt == nil ? .null(.int8) : .integer(202), .date(now), .date(sentAt ?? now),
      ])
    guard let id = rows.first?.int(0) else {
      throw .statementFailed(operation: "INSERT INTO outbox", message: "no id returned")
    }
    if sentAt == nil { try notifyOutboxChange() }
    return id
  }

  /// Tells every instance's listener that the outbox changed, when the transaction commits
  /// (at once outside one).
  func notifyOutboxChange() throws(StateError) {
    try connection.query("SELECT pg_notify($1, '')", [.text(PostgresOutboxListener.channel)])
  }

  /// The entry with this id.
  public func entry(id: Int64) throws(StateError) -> OutboxEntry {
    let rows = try locked { () throws(StateError) in
      try connection.query(
        "SELECT \(Self.entryColumns) FROM outbox WHERE id = $1", [.integer(id)])
    }
    guard let row = rows.first else { throw .notFound(what: "outbox entry", id: id) }
    guard let entry = Self.entry(row) else {
      // There, but not as this Reckon writes one: said so, not taken for a missing entry.
      throw .unreadableRow(
        what: "outbox entry \(id)",
        reason: "its state '\(row.text(8) ?? "")' or another column is not one this Reckon reads")
    }
    return entry
  }

  /// Entries in the named states (all when empty): unfinished first, the most urgent first; then
  /// the finished ones, the latest deadline first.
  public func entries(states: [String], limit: Int) throws(StateError) -> [OutboxEntry] {
    try locked { () throws(StateError) in
      var found: [OutboxEntry] = []
      for finished in [false, true] {
        let wanted =
          states.isEmpty ? [] : states.filter { Self.unfinishedStates.contains($0) != finished }
        guard found.count < limit, states.isEmpty || !wanted.isEmpty else { continue }
        let unfinished = Self.unfinishedStates.map { "'\($0)'" }.joined(separator: ", ")
        let filter = wanted.isEmpty ? "" : " AND state = ANY(string_to_array($2, ','))"
        found += try connection.query(
          """
          SELECT \(Self.entryColumns) FROM outbox
          WHERE (state NOT IN (\(unfinished))) = \(finished)\(filter)
          ORDER BY \(finished ? "deadline DESC, id DESC" : "deadline, id") LIMIT $1
          """,
          [.integer(Int64(limit - found.count))]
            + (wanted.isEmpty ? [] : [.text(wanted.joined(separator: ","))])
        ).compactMap(Self.entry)
      }
      return found
    }
  }

  /// How many entries are in the named states (all when empty).
  public func entryCount(states: [String]) throws(StateError) -> Int {
    guard !states.isEmpty else { return try count("SELECT COUNT(*) FROM outbox") }
    return try count(
      "SELECT COUNT(*) FROM outbox WHERE state = ANY(string_to_array($1, ','))",
      [.text(states.joined(separator: ","))])
  }

  /// Entries due at `now`, earliest deadline first: held and pending ones whose time came, and
  /// `sending` ones whose send began before `leaseLapsedBefore`.
  public func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int) throws(StateError)
    -> [OutboxEntry]
  {
    try dueEntries(now: now, leaseLapsedBefore: leaseLapsedBefore, limit: limit, apps: nil)
  }

  /// The due entries of `apps` alone (all when nil), claimed as the others are: an instance
  /// configured for other apps claims none of them.
  public func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int, apps: Set<AppKey>?)
    throws(StateError) -> [OutboxEntry]
  {
    // Claimed, not only read: rows another instance is claiming are skipped, not waited for,
    // and those it claimed stay its own until the claim lapses or it saves them.
    try locked { () throws(StateError) in
      try connection.query(
        """
        UPDATE outbox SET claimed_by = $4, claim_until = $5
        WHERE id IN (
          SELECT id FROM outbox
          WHERE state IN ('held', 'pending', 'sending')
            AND ((state <> 'sending' AND (state_at <= $1 OR deadline <= $1))
              OR (state = 'sending' AND state_at < $3))
            AND (claimed_by IS NULL OR claimed_by = $4 OR claim_until <= $1)
            AND ($6::text IS NULL
              OR strpos($6, chr(10) || bundle_id || '|' || environment || chr(10)) > 0
              OR (state IN ('held', 'pending') AND deadline <= $1))
          ORDER BY deadline, id LIMIT $2
          FOR UPDATE SKIP LOCKED)
        RETURNING \(Self.entryColumns)
        """,
        [
          .date(now), .integer(Int64(min(limit, Self.largestClaim))), .date(leaseLapsedBefore),
          .text(holder),
          .date(now + Self.claimLifetime(now: now, leaseLapsedBefore: leaseLapsedBefore)),
          .optional(apps.map(AppKey.lines)),
        ]
      ).compactMap(Self.entry).sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }
  }

  /// How long due entries an instance took stay its own before it saves them: the sender's
  /// send lease (`now - leaseLapsedBefore`), so an entry of an instance that died, begun or
  /// only claimed, is another's after the same lease. Kept within a sane range for the
  /// unbounded dates of a caller that takes over no sends.
  static func claimLifetime(now: Date, leaseLapsedBefore: Date) -> TimeInterval {
    min(max(now.timeIntervalSince(leaseLapsedBefore), 1), 3_600)
  }

  /// The most due entries one call claims, so instances sending together share a backlog
  /// rather than one taking all of it.
  static let largestClaim = 64

  /// When the next held or pending entry falls due, if any waits.
  public func nextWake() throws(StateError) -> Date? { try nextWake(apps: nil) }

  /// When the next held or pending entry of `apps` falls due, or one of another app reaches its
  /// deadline, if any waits.
  public func nextWake(apps: Set<AppKey>?) throws(StateError) -> Date? {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT MIN(CASE
          WHEN $1::text IS NULL OR strpos($1, chr(10) || bundle_id || '|' || environment || chr(10)) > 0
          THEN LEAST(state_at, deadline) ELSE deadline END)
        FROM outbox WHERE state IN ('held', 'pending')
        """, [.optional(apps.map(AppKey.lines))]
      ).first?.date(0)
    }
  }

  /// Writes the entry's state, and the attempt when given, in one transaction, if the stored
  /// entry is still the revision `entry` was read at; throws `changedConcurrently` otherwise.
  public func save(_ entry: inout OutboxEntry, attempt: DeliveryAttempt?, now: Date)
    throws(StateError)
  {
    let written = entry
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.query(
          """
          UPDATE outbox SET body = $1, state = $2, state_at = $3, state_reason = $4,
            attempts = $5, interrupted_sends = $6, last_status = $7, last_error = $8,
            updated_at = $9, revision = revision + 1, claimed_by = NULL, claim_until = NULL
          WHERE id = $10 AND revision = $11
          """,
          [
            .bytes(written.body), .text(written.state.name), .date(written.state.time),
            .optional(written.state.reason), .integer(Int64(written.attempts)),
            .integer(Int64(written.interruptedSends)), .optional(written.lastStatus),
            .optional(written.lastError), .date(now), .integer(written.id),
            .integer(written.revision),
          ])
        guard connection.changes == 1 else {
          let exists = try !connection.query(
            "SELECT 1 FROM outbox WHERE id = $1", [.integer(written.id)]
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
        SELECT entry_id, started_at, finished_at, http_status, error_code, error_message, result
        FROM attempts WHERE entry_id = $1 ORDER BY id
        """, [.integer(entryId)]
      ).map { row in
        DeliveryAttempt(
          entryId: row.int(0) ?? 0, startedAt: row.date(1) ?? .distantPast,
          finishedAt: row.date(2), httpStatus: row.int(3).map(Int.init),
          errorCode: row.int(4).map(Int.init), errorMessage: row.text(5),
          result: row.text(6) ?? "")
      }
    }
  }

  /// Applies an operator command to an entry and saves it with `note` as an `operator` attempt,
  /// judging it again against the entry as it now is when another writer changed it meanwhile.
  public func modifyEntry(
    id: Int64, now: Date, note: String?,
    _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    var tries = 0
    while true {
      do {
        var entry = try entry(id: id)
        try command(&entry)
        let record = note.map {
          DeliveryAttempt(
            entryId: id, startedAt: now, finishedAt: now, httpStatus: nil, errorCode: nil,
            errorMessage: $0, result: "operator")
        }
        try save(&entry, attempt: record, now: now)
        // An approved or retried entry goes now, not at the next poll.
        try locked { () throws(StateError) in try notifyOutboxChange() }
        return entry
      } catch StateError.changedConcurrently where tries < 3 {
        tries += 1
      }
    }
  }

  private func insertAttempt(_ attempt: DeliveryAttempt) throws(StateError) {
    try connection.query(
      """
      INSERT INTO attempts (entry_id, started_at, finished_at, http_status, error_code,
        error_message, result)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      """,
      [
        .integer(attempt.entryId), .date(attempt.startedAt), .optional(attempt.finishedAt),
        .optional(attempt.httpStatus), .optional(attempt.errorCode),
        .optional(attempt.errorMessage), .text(attempt.result),
      ])
  }

  /// A body context as the `context` column's JSON object.
  static func json(_ context: BodyContext) -> String {
    let data = try? JSONSerialization.data(withJSONObject: context.values, options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  static func entry(_ row: PostgresRow) -> OutboxEntry? {
    guard let id = row.int(0), let decisionId = row.int(1), let requestId = row.int(2),
      let bundleId = row.text(3), let environment = row.text(4),
      let transactionId = row.text(5), let body = row.bytes(7), let stateAt = row.date(9),
      let state = row.text(8).flatMap({ OutboxState(name: $0, at: stateAt, reason: row.text(10)) }),
      let deadline = row.date(11)
    else { return nil }
    let values =
      row.text(6).flatMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
      } ?? [:]
    return OutboxEntry(
      id: id, decisionId: decisionId, requestId: requestId,
      app: AppKey(bundleId: bundleId, environment: environment),
      transactionId: transactionId, context: BodyContext(values), body: body, deadline: deadline,
      state: state, attempts: Int(row.int(12) ?? 0), interruptedSends: Int(row.int(13) ?? 0),
      lastStatus: row.int(14).map(Int.init), lastError: row.text(15), revision: row.int(16) ?? 0,
      createdAt: row.date(17))
  }
}
