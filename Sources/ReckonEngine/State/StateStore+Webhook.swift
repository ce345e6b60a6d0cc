import Foundation
import ReckonAppStore

/// A recorded CONSUMPTION_REQUEST that has no decision yet: a fact source failed, or the
/// process stopped between recording and deciding.
public struct UndecidedRequest: Hashable, Sendable {
  /// The request's id.
  public let requestId: Int64
  /// When it was received: the decision's `now`.
  public let receivedAt: Date
  /// The body exactly as received, to verify and decide again.
  public let rawNotification: Data
}

/// A notification as recorded: when it came and its body exactly as received.
public struct RecordedNotification: Hashable, Sendable {
  /// When it was received.
  public let receivedAt: Date
  /// The body exactly as received.
  public let rawNotification: Data
}

extension StateStore {
  /// CONSUMPTION_REQUESTs received before `before` and still before their deadline at `now`
  /// that have no decision, oldest first; not repeats, and not requests imported from history.
  public func undecidedRequests(before: Date, now: Date, limit: Int = 100)
    throws(StateDatabaseError) -> [UndecidedRequest]
  {
    // A deadline is at most the reply window after receipt, so only requests received within
    // the longest window can still be open: the search reads those, not the whole table, every
    // 30 s while the service runs.
    let earliest = now.addingTimeInterval(-AppStoreEnvironment.longestReplyWindow)
    return try locked { () throws(StateDatabaseError) in
      try connection.query(
        Self.undecidedQuery,
        [.date(before), .date(now), .integer(Int64(limit)), .date(earliest)]
      ).compactMap { row in
        guard let id = row.int(0), let received = row.date(1), let raw = row.blob(2) else {
          return nil
        }
        return UndecidedRequest(requestId: id, receivedAt: received, rawNotification: raw)
      }
    }
  }

  /// `undecidedRequests`' query: received before ?1 and after ?4, deadline after ?2, at most ?3.
  static let undecidedQuery = """
    SELECT r.id, r.received_at, r.raw_notification FROM requests r
    WHERE r.notification_type = 'CONSUMPTION_REQUEST' AND r.received_at < ?1 AND r.received_at >= ?4
      AND r.deadline > ?2 AND r.repeat_of IS NULL AND r.imported = 0
      AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
    ORDER BY r.received_at LIMIT ?3
    """

  /// The recorded notification of a request, as received; nil when there is no such request.
  public func recordedNotification(requestId: Int64) throws(StateDatabaseError)
    -> RecordedNotification?
  {
    try locked { () throws(StateDatabaseError) in
      try connection.query(
        "SELECT received_at, raw_notification FROM requests WHERE id = ?", [.integer(requestId)]
      ).first.flatMap { row in
        guard let received = row.date(0), let raw = row.blob(1) else { return nil }
        return RecordedNotification(receivedAt: received, rawNotification: raw)
      }
    }
  }

  /// Whether a decision was recorded for the request.
  public func hasDecision(requestId: Int64) throws(StateDatabaseError) -> Bool {
    try locked { () throws(StateDatabaseError) in
      try !connection.query(
        "SELECT 1 FROM decisions WHERE request_id = ? LIMIT 1", [.integer(requestId)]
      ).isEmpty
    }
  }

  /// The number of decisions recorded for the request (one, once decided).
  public func decisionCount(requestId: Int64) throws(StateDatabaseError) -> Int {
    try locked { () throws(StateDatabaseError) in
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
  public func checkWritable() throws(StateDatabaseError) {
    try locked { () throws(StateDatabaseError) in
      try connection.transaction { () throws(StateDatabaseError) in
        try connection.query(
          "INSERT INTO schema_migrations (version, applied_at) VALUES (-1, 0)")
        try connection.query("DELETE FROM schema_migrations WHERE version = -1")
      }
    }
  }

  /// How many outbox entries are in each state, for `/metrics`.
  public func outboxDepth() throws(StateDatabaseError) -> [String: Int] {
    try locked { () throws(StateDatabaseError) in
      var depth: [String: Int] = [:]
      for row in try connection.query("SELECT state, COUNT(*) FROM outbox GROUP BY state") {
        if let state = row.text(0) { depth[state] = Int(row.int(1) ?? 0) }
      }
      return depth
    }
  }
}
