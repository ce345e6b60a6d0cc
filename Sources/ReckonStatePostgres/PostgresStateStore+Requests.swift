import Foundation
import ReckonState

extension PostgresStateStore {
  /// Requests received before `before` (and within the longest reply window of `now`) still
  /// before their deadline, undecided and due a try, the longest waiting first.
  public func undecidedRequests(before: Date, now: Date, limit: Int) throws(StateError)
    -> [UndecidedRequest]
  {
    let earliest = now.addingTimeInterval(-rules.longestWindow)
    return try locked { () throws(StateError) in
      var requests: [UndecidedRequest] = []
      for row in try connection.query(
        """
        SELECT r.id, r.received_at, r.raw_notification, r.retries, r.raw_format, r.environment
        FROM requests r
        WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at < $1
          AND r.received_at >= $4 AND r.deadline > $2 AND r.repeat_of IS NULL AND NOT r.imported
          AND (r.retry_at IS NULL OR r.retry_at <= $2)
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
        ORDER BY coalesce(r.retry_at, r.received_at) LIMIT $3
        """,
        [.date(before), .date(now), .integer(Int64(limit)), .date(earliest)])
      {
        guard let id = row.int(0), let received = row.date(1), let raw = row.bytes(2) else {
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

  /// Puts off the next try of an undecided request until `until`, counting one more failure.
  public func postponeRetry(requestId: Int64, until: Date, reason: String) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE requests SET retry_at = $1, retries = retries + 1, retry_reason = $2 WHERE id = $3",
        [.date(until), .text(reason), .integer(requestId)])
    }
  }

  /// Makes every postponed retry due now.
  public func makeRetriesDue() throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query("UPDATE requests SET retry_at = NULL WHERE retry_at IS NOT NULL")
    }
  }

  /// Requests whose deadline passed by `now` undecided and not yet reported, among those
  /// received in the two longest windows before `now`.
  public func lapsedRequests(now: Date) throws(StateError) -> [LapsedRequest] {
    let earliest = now.addingTimeInterval(-2 * rules.longestWindow)
    return try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.id, r.transaction_id, r.bundle_id, r.environment, r.deadline, r.retries,
          r.retry_reason
        FROM requests r
        WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= $2
          AND r.deadline <= $1 AND r.lapsed_at IS NULL AND r.repeat_of IS NULL AND NOT r.imported
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

  /// Records that a lapsed request was reported.
  public func markLapsed(requestId: Int64, at now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE requests SET lapsed_at = $1 WHERE id = $2", [.date(now), .integer(requestId)])
    }
  }

  /// The recorded notification of a request; nil when there is no such request.
  public func recordedNotification(requestId: Int64) throws(StateError) -> RecordedNotification? {
    try locked { () throws(StateError) in
      guard
        let row = try connection.query(
          "SELECT received_at, raw_notification, raw_format FROM requests WHERE id = $1",
          [.integer(requestId)]
        ).first, let received = row.date(0), let raw = row.bytes(1)
      else { return nil }
      return RecordedNotification(
        receivedAt: received,
        rawNotification: try receivedNotification(
          raw, format: row.int(2) ?? 0, requestId: requestId))
    }
  }

  /// Whether a notification with this UUID is stored, as a request or an outcome.
  public func hasNotification(uuid: String) throws(StateError) -> Bool {
    try count(
      """
      SELECT (EXISTS (SELECT 1 FROM requests WHERE notification_uuid = $1)
        OR EXISTS (SELECT 1 FROM outcomes WHERE notification_uuid = $1))::integer
      """, [.text(uuid)]) != 0
  }

  /// Records how the store refunded, on an outcome already attached.
  public func recordRevocation(notificationUUID: String, type: String?, percentage: Int?)
    throws(StateError)
  {
    try locked { () throws(StateError) in
      try connection.query(
        """
        UPDATE outcomes SET revocation_type = $1, revocation_percentage = $2
        WHERE notification_uuid = $3
        """, [.optional(type), .optional(percentage), .text(notificationUUID)])
    }
  }

  /// Whether a decision was recorded for the request.
  public func hasDecision(requestId: Int64) throws(StateError) -> Bool {
    try decisionCount(requestId: requestId) > 0
  }

  /// How many decisions the request has: at most one, by the schema's unique key.
  public func decisionCount(requestId: Int64) throws(StateError) -> Int {
    try count("SELECT COUNT(*) FROM decisions WHERE request_id = $1", [.integer(requestId)])
  }

  /// The decision with this id, as stored.
  public func decision(id: Int64) throws(StateError) -> DecisionRecord? {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT policy_name, policy_version, policy_sha256, action, rule, reason, body,
          facts_json, explanation_json, decided_at, json_format FROM decisions WHERE id = $1
        """, [.integer(id)]
      ).first.map { row throws(StateError) in
        let json = try DecisionJSON(facts: row.bytes(7) ?? Data(), explanation: row.bytes(8))
          .written(format: row.int(10) ?? 0, decisionId: id)
        return DecisionRecord(
          policyName: row.text(0) ?? "", policyVersion: row.text(1),
          policySHA256: row.text(2) ?? "", action: row.text(3) ?? "", rule: row.text(4) ?? "",
          reason: row.text(5), body: row.bytes(6), factsJSON: json.facts,
          explanationJSON: json.explanation, decidedAt: row.date(9) ?? .distantPast)
      }
    }
  }
}
