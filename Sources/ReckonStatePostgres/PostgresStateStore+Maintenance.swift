import Foundation
import ReckonState

extension PostgresStateStore {
  /// The outbox by state, the entries overdue and the requests undecided at `now`.
  public func gauges(now: Date) throws(StateError) -> StateGauges {
    let earliest = now.addingTimeInterval(-rules.longestWindow)
    var gauges = StateGauges(outboxDepth: try outboxDepth())
    gauges.overdue = try count(
      """
      SELECT COUNT(*) FROM outbox
      WHERE state IN ('held', 'pending', 'sending') AND deadline <= $1
      """, [.date(now)])
    gauges.undecided = try count(
      """
      SELECT COUNT(*) FROM requests r
      WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= $2
        AND r.deadline > $1 AND r.repeat_of IS NULL AND NOT r.imported
        AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
      """, [.date(now), .date(earliest)])
    gauges.oldestDueSince = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT MIN(LEAST(state_at, deadline)) FROM outbox
        WHERE state IN ('held', 'pending') AND (state_at <= $1 OR deadline <= $1)
        """, [.date(now)]
      ).first?.date(0)
    }
    gauges.paused = try pauses().filter { $0.until > now }.map(\.app)
    return gauges
  }

  /// How many outbox entries are in each state.
  public func outboxDepth() throws(StateError) -> [String: Int] {
    try locked { () throws(StateError) in
      var depth: [String: Int] = [:]
      for row in try connection.query("SELECT state, COUNT(*) FROM outbox GROUP BY state") {
        if let state = row.text(0) { depth[state] = Int(row.int(1) ?? 0) }
      }
      return depth
    }
  }

  /// Why writes fail now, if they do.
  public var writeProblem: StateWriteHealth.Problem? { connection.writeHealth.current }

  /// Writes and commits this instance's row in `write_checks`, so a write problem (the server
  /// gone, a read-only replica after a failover, a full disk) shows now.
  public func checkWritable() throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        """
        INSERT INTO write_checks (holder, checked_at) VALUES ($1, $2)
        ON CONFLICT (holder) DO UPDATE SET checked_at = excluded.checked_at
        """, [.text(holder), .date(Date())])
    }
  }

  /// Nothing to move: the server writes its own log to its files.
  public func checkpoint(waitingForOthers: Bool) throws(StateError) -> Bool { true }
}

extension PostgresStateStore {
  /// How many bytes the database takes on the server's disk, tables and indexes with it.
  public func databaseBytes() throws(StateError) -> Int {
    try count("SELECT pg_database_size(current_database())")
  }
}
