import Foundation
import ReckonSQLite
import ReckonState
import ReckonSupport

extension SQLiteStateStore {
  /// How many refund requests one pruning transaction removes: small enough that the webhook
  /// and the sender, writing the same file, wait milliseconds for the lock rather than seconds.
  static let pruneBatch = 500

  /// The requests a prune removes (`r`): received before `?1`, not themselves a repeat (a repeat
  /// goes with the request it repeats), with nothing about them since: no repeat received and no
  /// outcome reported at or after `?1` (a refund reported lately counts in
  /// `history.earlier_refunds`), and no outbox entry still waiting to be sent.
  private static let prunable = """
    r.received_at < ?1 AND r.repeat_of IS NULL
    AND NOT EXISTS (SELECT 1 FROM requests p WHERE p.repeat_of = r.id AND p.received_at >= ?1)
    AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.request_id = r.id AND o.occurred_at >= ?1)
    AND NOT EXISTS (
      SELECT 1 FROM decisions d JOIN outbox e ON e.decision_id = d.id
      WHERE d.request_id = r.id AND e.state IN ('held', 'pending', 'sending'))
    """

  /// Removes every notification received before `cutoff` with everything recorded about it
  /// (decisions, outbox entries, attempts, outcomes), and outcomes attached to no request that
  /// were reported before it. A request stays, with its repeats, while its reply still waits to
  /// be sent (held, pending or sending) or while anything about it (a repeat, an outcome) is
  /// dated at or after the cutoff. Runs in short transactions beside a running webhook and
  /// sender. With `dryRun`, counts what would go and changes nothing.
  ///
  /// After each transaction it waits as long as the transaction took, so the webhook and the
  /// sender, in this process (the store's lock is not fair) or another (SQLite's busy handler
  /// polls), get the file in between. `stop` is asked between transactions: when it says so,
  /// the prune ends there and returns what it removed.
  ///
  /// `history.earlier_requests` and `history.earlier_refunds` count only what the database
  /// holds, so a policy reading them sees less history afterwards. A failure part-way throws
  /// `pruneStopped` with what was removed by then; what is left is whole, and pruning again
  /// goes on from there.
  public func prune(
    before cutoff: Date, now: Date, dryRun: Bool = false, stop: () -> Bool = { false }
  ) throws(StateError) -> PruneCounts {
    let latest = now.addingTimeInterval(-StateRetention.shortest)
    guard cutoff <= latest else { throw .retentionTooShort(cutoff: cutoff, latest: latest) }
    if dryRun { return try pruneCounts(before: cutoff) }
    var counts = PruneCounts()
    do {
      while !stop() {
        let started = Date()
        guard let batch = try pruneBatch(before: cutoff) else { break }
        counts = counts + batch
        checkpointer?.committed()
        Thread.sleep(forTimeInterval: min(1, Date().timeIntervalSince(started)))
      }
      if stop() { return counts }
      while let outcomes = try pruneLooseOutcomes(before: cutoff) {
        counts.outcomes += outcomes
      }
    } catch {
      throw counts.isEmpty ? error : .pruneStopped(removed: counts, cause: error)
    }
    return counts
  }

  /// What pruning before `cutoff` would remove, read in one transaction.
  private func pruneCounts(before cutoff: Date) throws(StateError) -> PruneCounts {
    try locked { () throws(StateError) in
      let row = try connection.query(
        """
        WITH originals AS (SELECT r.id FROM requests r WHERE \(Self.prunable)),
        pruned AS (
          SELECT id FROM originals UNION SELECT id FROM requests WHERE repeat_of IN originals)
        SELECT (SELECT count(*) FROM pruned),
          (SELECT count(*) FROM decisions WHERE request_id IN pruned),
          (SELECT count(*) FROM outbox WHERE decision_id IN (
            SELECT id FROM decisions WHERE request_id IN pruned)),
          (SELECT count(*) FROM attempts WHERE entry_id IN (
            SELECT id FROM outbox WHERE decision_id IN (
              SELECT id FROM decisions WHERE request_id IN pruned))),
          (SELECT count(*) FROM outcomes WHERE request_id IN pruned
            OR (request_id IS NULL AND occurred_at < ?1))
        """, [.date(cutoff)]
      ).first
      func count(_ column: Int) -> Int { Int(row?.int(column) ?? 0) }
      return PruneCounts(
        notifications: count(0), decisions: count(1), entries: count(2), attempts: count(3),
        outcomes: count(4))
    }
  }

  /// Removes up to `pruneBatch` of the oldest prunable requests and what belongs to them, in one
  /// transaction; nil when none is left.
  private func pruneBatch(before cutoff: Date) throws(StateError) -> PruneCounts? {
    try locked { () throws(StateError) -> PruneCounts? in
      try connection.transaction { () throws(StateError) -> PruneCounts? in
        let originals = try ids(
          "SELECT r.id FROM requests r WHERE \(Self.prunable) ORDER BY r.received_at LIMIT ?2",
          [.date(cutoff), .integer(Int64(Self.pruneBatch))])
        guard !originals.isEmpty else { return nil }
        // Ids are integers read just now, so they are written into the statements as they are.
        let list = Self.idList(originals)
        let repeats = try ids("SELECT id FROM requests WHERE repeat_of IN (\(list))")
        let requests = Self.idList(originals + repeats)
        let decisions = Self.idList(
          try ids("SELECT id FROM decisions WHERE request_id IN (\(requests))"))
        let entries = Self.idList(
          try ids("SELECT id FROM outbox WHERE decision_id IN (\(decisions))"))
        var batch = PruneCounts()
        try connection.query("DELETE FROM attempts WHERE entry_id IN (\(entries))")
        batch.attempts = connection.changes
        try connection.query("DELETE FROM outbox WHERE id IN (\(entries))")
        batch.entries = connection.changes
        try connection.query("DELETE FROM decisions WHERE id IN (\(decisions))")
        batch.decisions = connection.changes
        try connection.query("DELETE FROM outcomes WHERE request_id IN (\(requests))")
        batch.outcomes = connection.changes
        // Repeats first: each points at the request it repeats.
        try connection.query("DELETE FROM requests WHERE id IN (\(Self.idList(repeats)))")
        batch.notifications = connection.changes
        try connection.query("DELETE FROM requests WHERE id IN (\(list))")
        batch.notifications += connection.changes
        return batch
      }
    }
  }

  /// The first column of each row `sql` returns, as ids.
  private func ids(_ sql: String, _ values: [SQLiteValue] = []) throws(StateError)
    -> [Int64]
  {
    try connection.query(sql, values).compactMap { $0.int(0) }
  }

  /// `ids` for an SQL `IN (…)` list; `NULL` for none, which matches nothing.
  private static func idList(_ ids: [Int64]) -> String {
    ids.isEmpty ? "NULL" : ids.map(String.init).joined(separator: ",")
  }

  /// Removes up to `pruneBatch` outcomes attached to no request (imported from Apple's history
  /// for a transaction with no request here) reported before `cutoff`; nil when none is left.
  private func pruneLooseOutcomes(before cutoff: Date) throws(StateError) -> Int? {
    try locked { () throws(StateError) -> Int? in
      try connection.query(
        """
        DELETE FROM outcomes WHERE id IN (
          SELECT id FROM outcomes WHERE request_id IS NULL AND occurred_at < ? LIMIT ?)
        """, [.date(cutoff), .integer(Int64(Self.pruneBatch))])
      return connection.changes == 0 ? nil : connection.changes
    }
  }
}
