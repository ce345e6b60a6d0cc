import Foundation
import ReckonState

extension PostgresStateStore {
  /// How many refund requests one pruning transaction removes.
  static let pruneBatch = 500

  /// The requests a prune removes (`r`), by the rules `SQLiteStateStore.prune` documents:
  /// received before `$1`, not a repeat, nothing about them since, no reply still to send.
  private static let prunable = """
    r.received_at < $1 AND r.repeat_of IS NULL
    AND NOT EXISTS (SELECT 1 FROM requests p WHERE p.repeat_of = r.id AND p.received_at >= $1)
    AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.request_id = r.id AND o.occurred_at >= $1)
    AND NOT EXISTS (
      SELECT 1 FROM outbox e WHERE e.request_id = r.id AND e.state IN ('held', 'pending', 'sending'))
    """

  /// Removes every notification received before `cutoff` with everything recorded about it, in
  /// short transactions beside the instances still serving; with `dryRun`, counts it. A failure
  /// part-way throws `pruneStopped` with what was removed by then.
  public func prune(before cutoff: Date, now: Date, dryRun: Bool, stop: () -> Bool)
    throws(StateError) -> PruneCounts
  {
    let latest = now.addingTimeInterval(-StateRetention.shortest)
    guard cutoff <= latest else { throw .retentionTooShort(cutoff: cutoff, latest: latest) }
    if dryRun { return try pruneCounts(before: cutoff) }
    var counts = PruneCounts()
    do {
      while !stop() {
        guard let batch = try pruneBatch(before: cutoff) else { break }
        counts = counts + batch
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

  private func pruneCounts(before cutoff: Date) throws(StateError) -> PruneCounts {
    try locked { () throws(StateError) in
      let row = try connection.query(
        """
        WITH originals AS (SELECT r.id FROM requests r WHERE \(Self.prunable)),
        pruned AS (
          SELECT id FROM originals
          UNION SELECT id FROM requests WHERE repeat_of IN (SELECT id FROM originals))
        SELECT (SELECT count(*) FROM pruned),
          (SELECT count(*) FROM decisions WHERE request_id IN (SELECT id FROM pruned)),
          (SELECT count(*) FROM outbox WHERE request_id IN (SELECT id FROM pruned)),
          (SELECT count(*) FROM attempts WHERE entry_id IN (
            SELECT id FROM outbox WHERE request_id IN (SELECT id FROM pruned))),
          (SELECT count(*) FROM outcomes WHERE request_id IN (SELECT id FROM pruned)
            OR (request_id IS NULL AND occurred_at < $1))
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
        let originals = try connection.query(
          """
          SELECT r.id FROM requests r WHERE \(Self.prunable)
          ORDER BY r.received_at LIMIT $2 FOR UPDATE SKIP LOCKED
          """, [.date(cutoff), .integer(Int64(Self.pruneBatch))]
        ).compactMap { $0.int(0) }
        guard !originals.isEmpty else { return nil }
        // Ids are integers read just now, so they are written into the statements as they are.
        let list = Self.idList(originals)
        let repeats = try connection.query("SELECT id FROM requests WHERE repeat_of IN (\(list))")
          .compactMap { $0.int(0) }
        let requests = Self.idList(originals + repeats)
        var batch = PruneCounts()
        func delete(_ sql: String) throws(StateError) -> Int {
          try connection.query(sql)
          return connection.changes
        }
        batch.attempts = try delete(
          "DELETE FROM attempts WHERE entry_id IN (SELECT id FROM outbox WHERE request_id IN (\(requests)))"
        )
        batch.entries = try delete("DELETE FROM outbox WHERE request_id IN (\(requests))")
        batch.decisions = try delete("DELETE FROM decisions WHERE request_id IN (\(requests))")
        batch.outcomes = try delete("DELETE FROM outcomes WHERE request_id IN (\(requests))")
        try connection.query("DELETE FROM request_claims WHERE request_id IN (\(requests))")
        // Repeats first: each points at the request it repeats.
        batch.notifications = try delete(
          "DELETE FROM requests WHERE id IN (\(Self.idList(repeats)))")
        batch.notifications += try delete("DELETE FROM requests WHERE id IN (\(list))")
        return batch
      }
    }
  }

  private static func idList(_ ids: [Int64]) -> String {
    ids.isEmpty ? "NULL" : ids.map(String.init).joined(separator: ",")
  }

  /// Removes up to `pruneBatch` outcomes attached to no request reported before `cutoff`; nil
  /// when none is left.
  private func pruneLooseOutcomes(before cutoff: Date) throws(StateError) -> Int? {
    try locked { () throws(StateError) -> Int? in
      try connection.query(
        """
        DELETE FROM outcomes WHERE id IN (
          SELECT id FROM outcomes WHERE request_id IS NULL AND occurred_at < $1 LIMIT $2)
        """, [.date(cutoff), .integer(Int64(Self.pruneBatch))])
      return connection.changes == 0 ? nil : connection.changes
    }
  }
}
