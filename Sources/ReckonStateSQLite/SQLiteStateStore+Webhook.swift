import Foundation
import ReckonState

extension SQLiteStateStore {
  /// CONSUMPTION_REQUESTs received before `before` and still before their deadline at `now`
  /// that have no decision and are due to be tried (`postponeRetry`), the longest waiting
  /// first; not repeats, and not requests imported from history.
  public func undecidedRequests(before: Date, now: Date, limit: Int = 100)
    throws(StateError) -> [UndecidedRequest]
  {
    // A deadline is at most the reply window after receipt, so only requests received within
    // the longest window can still be open: the search reads those, not the whole table, every
    // 30 s while the service runs.
    let earliest = now.addingTimeInterval(-rules.longestWindow)
    return try locked { () throws(StateError) in
      var requests: [UndecidedRequest] = []
      for row in try connection.query(
        undecidedQuery, [.date(before), .date(now), .integer(Int64(limit)), .date(earliest)])
      {
        guard let id = row.int(0), let received = row.date(1), let raw = row.blob(2) else {
          continue
        }
        requests.append(
          UndecidedRequest(
            requestId: id, receivedAt: received,
            rawNotification: try receivedNotification(raw, format: row.int(4) ?? 0, requestId: id),
            retries: Int(row.int(3) ?? 0), environment: row.text(5) ?? ""))
      }
      return requests
    }
  }

  /// Puts off the next try of an undecided request until `until`, recording that one more
  /// failed and why.
  public func postponeRetry(requestId: Int64, until: Date, reason: String)
    throws(StateError)
  {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE requests SET retry_at = ?, retries = retries + 1, retry_reason = ? WHERE id = ?",
        [.date(until), .text(reason), .integer(requestId)])
    }
  }

  /// Makes every undecided request waiting out a retry's delay due now: what failed was fixed
  /// (`reckon serve` does this on SIGHUP).
  public func makeRetriesDue() throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query("UPDATE requests SET retry_at = NULL WHERE retry_at IS NOT NULL")
    }
  }

  /// CONSUMPTION_REQUESTs whose deadline passed by `now` with no decision, not reported yet
  /// (`markLapsed`), among those received in the two longest windows before `now`.
  public func lapsedRequests(now: Date) throws(StateError) -> [LapsedRequest] {
    let earliest = now.addingTimeInterval(-2 * rules.longestWindow)
    return try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.id, r.transaction_id, r.bundle_id, r.environment, r.deadline, r.retries,
          r.retry_reason
        FROM requests r
        WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= ?2
          AND r.deadline <= ?1 AND r.lapsed_at IS NULL AND r.repeat_of IS NULL AND r.imported = 0
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
        ORDER BY r.deadline
        """, [.date(now), .date(earliest)]
      ).compactMap { row in
        guard let id = row.int(0), let bundle = row.text(2), let environment = row.text(3),
          let deadline = row.date(4)
        else { return nil }
        return LapsedRequest(
          requestId: id, transactionId: row.text(1) ?? "unknown",
          bundleId: bundle, environment: environment, deadline: deadline,
          retries: Int(row.int(5) ?? 0), lastReason: row.text(6))
      }
    }
  }

  /// Records that a lapsed request was reported, so it is reported once.
  public func markLapsed(requestId: Int64, at now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE requests SET lapsed_at = ? WHERE id = ?", [.date(now), .integer(requestId)])
    }
  }

  /// `undecidedRequests`' query: received before ?1 and after ?4, deadline after ?2, at most ?3.
  var undecidedQuery: String {
    """
    SELECT r.id, r.received_at, r.raw_notification, r.retries, \(rawFormat("r")), r.environment
    FROM requests r
    WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at < ?1 AND r.received_at >= ?4
      AND r.deadline > ?2 AND r.repeat_of IS NULL AND r.imported = 0
      AND (r.retry_at IS NULL OR r.retry_at <= ?2)
      AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
    ORDER BY coalesce(r.retry_at, r.received_at) LIMIT ?3
    """
  }

  /// The recorded notification of a request, as received; nil when there is no such request.
  public func recordedNotification(requestId: Int64) throws(StateError)
    -> RecordedNotification?
  {
    try locked { () throws(StateError) in
      guard
        let row = try connection.query(
          "SELECT received_at, raw_notification, \(rawFormat("requests")) FROM requests WHERE id = ?",
          [.integer(requestId)]
        ).first, let received = row.date(0), let raw = row.blob(1)
      else { return nil }
      return RecordedNotification(
        receivedAt: received,
        rawNotification: try receivedNotification(
          raw, format: row.int(2) ?? 0, requestId: requestId))
    }
  }

  /// Whether a decision was recorded for the request.
  public func hasDecision(requestId: Int64) throws(StateError) -> Bool {
    try locked { () throws(StateError) in
      try !connection.query(
        "SELECT 1 FROM decisions WHERE request_id = ? LIMIT 1", [.integer(requestId)]
      ).isEmpty
    }
  }

  /// The number of decisions recorded for the request (one, once decided).
  public func decisionCount(requestId: Int64) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      Int(
        try connection.query(
          "SELECT COUNT(*) FROM decisions WHERE request_id = ?", [.integer(requestId)]
        ).first?.int(0) ?? 0)
    }
  }

  /// The state database's write problem, nil while writes commit (see `StateWriteHealth`).
  public var writeProblem: StateWriteHealth.Problem? { connection.writeHealth.current }

  /// Writes and commits a change that leaves nothing behind, so a write problem (a full disk,
  /// a lock held past the busy timeout) shows now rather than at the next request; a commit
  /// clears `writeProblem`. A transaction that only read would commit without writing a page.
  public func checkWritable() throws(StateError) {
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.query(
          "INSERT INTO schema_migrations (version, applied_at) VALUES (-1, 0)")
        try connection.query("DELETE FROM schema_migrations WHERE version = -1")
      }
    }
  }

  /// Makes every write through this store fail (or succeed again), as a full disk would: for
  /// fault tests of what is written while the state refuses writes.
  package func refuseWrites(_ refuse: Bool) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.execute("PRAGMA query_only = \(refuse ? 1 : 0)")
    }
  }

  /// The outbox by state, the entries overdue and the requests undecided at `now`. Read without
  /// a transaction of their own, which would take the write lock: the gauges must read while
  /// writes fail.
  public func gauges(now: Date) throws(StateError) -> StateGauges {
    let earliest = now.addingTimeInterval(-rules.longestWindow)
    return try gaugeReader.read { (connection) throws(StateError) in
      var gauges = StateGauges(outboxDepth: try Self.depthByState(connection))
      gauges.overdue = Int(
        try connection.query(
          """
          SELECT COUNT(*) FROM outbox
          WHERE state IN ('held', 'pending', 'sending') AND deadline <= ?
          """, [.date(now)]
        ).first?.int(0) ?? 0)
      gauges.undecided = Int(
        try connection.query(
          """
          SELECT COUNT(*) FROM requests r
          WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= ?2
            AND r.deadline > ?1 AND r.repeat_of IS NULL AND r.imported = 0
            AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
          """, [.date(now), .date(earliest)]
        ).first?.int(0) ?? 0)
      gauges.oldestDueSince = try connection.query(
        """
        SELECT MIN(MIN(state_at, deadline)) FROM outbox
        WHERE state IN ('held', 'pending') AND (state_at <= ?1 OR deadline <= ?1)
        """, [.date(now)]
      ).first?.date(0)
      gauges.paused = try connection.query(
        """
        SELECT bundle_id, environment FROM app_pauses WHERE paused_until > ?
        ORDER BY bundle_id, environment
        """,
        [.date(now)]
      ).compactMap { row in
        guard let bundle = row.text(0), let environment = row.text(1) else { return nil }
        return AppKey(bundleId: bundle, environment: environment)
      }
      return gauges
    }
  }

  /// How many outbox entries are in each state, for `/metrics`.
  public func outboxDepth() throws(StateError) -> [String: Int] {
    try locked { () throws(StateError) in try Self.depthByState(connection) }
  }

  /// `outboxDepth`'s query on `connection`.
  private static func depthByState(_ connection: SQLiteConnection) throws(StateError)
    -> [String: Int]
  {
    var depth: [String: Int] = [:]
    for row in try connection.query("SELECT state, COUNT(*) FROM outbox GROUP BY state") {
      if let state = row.text(0) { depth[state] = Int(row.int(1) ?? 0) }
    }
    return depth
  }
}
