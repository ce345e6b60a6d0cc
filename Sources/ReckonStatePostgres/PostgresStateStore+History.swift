import Foundation
import ReckonState

extension PostgresStateStore {
  /// CONSUMPTION_REQUESTs received in `since..<until`, oldest first, with their decision's facts.
  public func storedRequests(since: Date?, until: Date?) throws(StateError) -> [StoredRequest] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.id, r.raw_notification, r.received_at, d.facts_json, r.raw_format, d.id,
          d.json_format, r.notification_uuid
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
          }, notificationUUID: row.text(7))
      }
    }
  }

  /// The store's verdicts on refund requests (REFUND, REFUND_DECLINED).
  public func storeVerdicts() throws(StateError) -> StoreVerdicts {
    try locked { () throws(StateError) in
      var verdicts = StoreVerdicts()
      for row in try connection.query(
        """
        SELECT transaction_id, environment, occurred_at, type FROM outcomes
        WHERE type IN (\(OutcomeType.sqlList(OutcomeType.verdicts)))
        """)
      {
        guard let transactionId = row.text(0), let date = row.date(2) else { continue }
        verdicts.add(
          transactionId: transactionId, environment: row.text(1), at: date,
          outcome: row.text(3).flatMap(OutcomeType.init(rawValue:)))
      }
      return verdicts
    }
  }

  /// Decided requests received in `since..<until`, and requests imported from history and never
  /// decided, with the outcomes the store reported for them. A request recorded with its
  /// summary comes without its notification.
  public func decidedOutcomes(since: Date?, until: Date?) throws(StateError) -> [DecidedOutcome] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.received_at, d.action, d.rule, d.policy_name, d.body,
          CASE WHEN NOT r.summarized THEN r.raw_notification END,
          e.state, CASE WHEN e.state = 'sent' THEN e.body END,
          (SELECT string_agg(o.type || ' ' || COALESCE(o.revocation_type, '') || ' '
              || COALESCE(o.revocation_percentage::text, ''), ',' ORDER BY o.occurred_at, o.id)
            FROM outcomes o WHERE o.request_id = r.id),
          r.id, r.raw_format, r.environment, d.policy_version, d.policy_sha256,
          r.price, r.currency, r.reason, r.product_type, r.summarized
        FROM requests r LEFT JOIN decisions d ON d.request_id = r.id
          LEFT JOIN outbox e ON e.decision_id = d.id
        WHERE r.received_at >= $1 AND r.received_at < $2 AND \(reportedRequest)
        ORDER BY r.received_at, r.id
        """, Self.range(since, until)
      ).map { row throws(StateError) in try decidedOutcome(row) }
    }
  }

  private func decidedOutcome(_ row: PostgresRow) throws(StateError) -> DecidedOutcome {
    let attached = AttachedOutcomes(row.text(8))
    return DecidedOutcome(
      receivedAt: row.date(0) ?? Date(timeIntervalSince1970: 0),
      action: row.text(1) ?? DecidedOutcome.imported,
      rule: row.text(2) ?? "", policyName: row.text(3) ?? "", body: row.bytes(4),
      rawNotification: try row.bytes(5).map { raw throws(StateError) in
        try receivedNotification(raw, format: row.int(10) ?? 0, requestId: row.int(9) ?? 0)
      } ?? Data(),
      outboxState: row.text(6), sentBody: row.bytes(7), outcomes: attached.types,
      revocationType: attached.revocationType, revocationPercentage: attached.revocationPercentage,
      summary: row.bool(18) == true
        ? RequestSummary(
          price: row.int(14), currency: row.text(15), reason: row.text(16),
          productType: row.text(17)) : nil,
      environment: row.text(11) ?? "", policyVersion: row.text(12), policySHA256: row.text(13))
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
