import Foundation
import ReckonState

extension PostgresStateStore {
  /// CONSUMPTION_REQUESTs received in `since..<until`, oldest first, with their decision's facts.
  public func storedRequests(since: Date?, until: Date?) throws(StateError) -> [StoredRequest] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.id, r.raw_notification, r.received_at, d.facts_json, r.raw_format, d.id,
          d.json_format
        FROM requests r LEFT JOIN decisions d ON d.request_id = r.id
        WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= $1
          AND r.received_at < $2 AND r.repeat_of IS NULL
        ORDER BY r.received_at, r.id
        """, Self.range(since, until)
      ).map { row throws(StateError) in
        let id = row.int(0) ?? 0
        return StoredRequest(
          id: id,
          rawNotification: try receivedNotification(
            row.bytes(1) ?? Data(), format: row.int(4) ?? 0, requestId: id),
          receivedAt: row.date(2) ?? Date(timeIntervalSince1970: 0),
          factsJSON: try row.bytes(3).map { facts throws(StateError) in
            try DecisionJSON(facts: facts, explanation: nil)
              .written(format: row.int(6) ?? 0, decisionId: row.int(5) ?? 0).facts
          })
      }
    }
  }

  /// The store's verdicts on refund requests (REFUND, REFUND_DECLINED).
  public func storeVerdicts() throws(StateError) -> StoreVerdicts {
    try locked { () throws(StateError) in
      var verdicts = StoreVerdicts()
      for row in try connection.query(
        """
        SELECT transaction_id, environment, occurred_at FROM outcomes
        WHERE type IN (\(OutcomeType.sqlList(OutcomeType.verdicts)))
        """)
      {
        guard let transactionId = row.text(0), let date = row.date(2) else { continue }
        verdicts.add(transactionId: transactionId, environment: row.text(1), at: date)
      }
      return verdicts
    }
  }

  /// Decided requests received in `since..<until`, and requests imported from history and never
  /// decided, with the outcomes the store reported for them.
  public func decidedOutcomes(since: Date?, until: Date?) throws(StateError) -> [DecidedOutcome] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.received_at, d.action, d.rule, d.policy_name, d.body, r.raw_notification,
          e.state, CASE WHEN e.state = 'sent' THEN e.body END,
          (SELECT string_agg(o.type, ',' ORDER BY o.occurred_at, o.id) FROM outcomes o
            WHERE o.request_id = r.id),
          refund.revocation_type, refund.revocation_percentage, r.id, r.raw_format
        FROM requests r LEFT JOIN decisions d ON d.request_id = r.id
          LEFT JOIN outbox e ON e.decision_id = d.id
          LEFT JOIN LATERAL (
            SELECT o.revocation_type, o.revocation_percentage FROM outcomes o
            WHERE o.request_id = r.id AND o.type = 'REFUND' ORDER BY o.occurred_at, o.id LIMIT 1
          ) refund ON true
        WHERE r.received_at >= $1 AND r.received_at < $2 AND \(reportedRequest)
        ORDER BY r.received_at, r.id
        """, Self.range(since, until)
      ).map { row throws(StateError) in
        DecidedOutcome(
          receivedAt: row.date(0) ?? Date(timeIntervalSince1970: 0),
          action: row.text(1) ?? DecidedOutcome.imported,
          rule: row.text(2) ?? "", policyName: row.text(3) ?? "", body: row.bytes(4),
          rawNotification: try receivedNotification(
            row.bytes(5) ?? Data(), format: row.int(12) ?? 0, requestId: row.int(11) ?? 0),
          outboxState: row.text(6),
          sentBody: row.bytes(7),
          outcomes: (row.text(8) ?? "").split(separator: ",").compactMap {
            OutcomeType(rawValue: String($0))
          }, revocationType: row.text(9), revocationPercentage: row.int(10).map { Int($0) })
      }
    }
  }

  /// How many requests a dry-run (or, with `decided`, the outcomes report) reads, and when the
  /// first and last came.
  public func requestSpan(decided: Bool) throws(StateError) -> StoredRequestSpan {
    let selection =
      decided
      ? reportedRequest : "r.notification_type IN (\(requestTypeSQL)) AND r.repeat_of IS NULL"
    let row = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT count(*), min(r.received_at), max(r.received_at)
        FROM requests r LEFT JOIN decisions d ON d.request_id = r.id
        WHERE \(selection)
        """
      ).first
    }
    return StoredRequestSpan(count: Int(row?.int(0) ?? 0), first: row?.date(1), last: row?.date(2))
  }

  /// The requests the outcomes report reads (`r` the request, `d` its decision).
  var reportedRequest: String {
    """
    (d.id IS NOT NULL OR (r.imported AND r.notification_type IN (\(requestTypeSQL)) \
    AND r.repeat_of IS NULL))
    """
  }

  private static func range(_ since: Date?, _ until: Date?) -> [PostgresValue] {
    [.double(since?.timeIntervalSince1970 ?? -1e18), .double(until?.timeIntervalSince1970 ?? 1e18)]
  }
}
