import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore {
  /// CONSUMPTION_REQUESTs received in `since..<until`, oldest first, with their latest decision's facts.
  public func storedRequests(since: Date?, until: Date?) throws(StateError)
    -> [StoredRequest]
  {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT r.id, r.raw_notification, r.received_at, d.facts_json, \(rawFormat("r")), d.id,
          \(jsonFormat("d")), r.notification_uuid
        FROM requests r
          LEFT JOIN decisions d ON d.id = (SELECT max(id) FROM decisions WHERE request_id = r.id)
        WHERE r.notification_type IN (\(requestTypeSQL)) AND r.received_at >= ? AND r.received_at < ?
          AND r.repeat_of IS NULL
        ORDER BY r.received_at, r.id
        """, SQLiteStateStore.range(since, until)
      ).map { row throws(StateError) in
        let id = row.int(0) ?? 0
        return StoredRequest(
          id: id,
          rawNotification: try receivedNotification(
            row.blob(1) ?? Data(), format: row.int(4) ?? 0, requestId: id),
          receivedAt: row.date(2) ?? Date(timeIntervalSince1970: 0),
          factsJSON: try row.blob(3).map { facts throws(StateError) in
            try DecisionJSON(facts: facts, explanation: nil)
              .written(format: row.int(6) ?? 0, decisionId: row.int(5) ?? 0).facts
          }, notificationUUID: row.text(7))
      }
    }
  }

  /// Apple's verdicts on refund requests (REFUND, REFUND_DECLINED), for a dry-run to tell a
  /// customer asking again from a repeat among imported requests.
  public func storeVerdicts() throws(StateError) -> StoreVerdicts {
    try locked { () throws(StateError) in
      var verdicts = StoreVerdicts()
      for row in try connection.query(
        """
        SELECT transaction_id, environment, occurred_at, type FROM \(outcomesWithApps)
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

  /// Decided requests received in `since..<until`, and CONSUMPTION_REQUESTs imported from
  /// Apple's history that Reckon never decided (action `imported`), with the outcomes Apple
  /// reported for them. A request recorded with its summary comes without its notification.
  public func decidedOutcomes(since: Date?, until: Date?) throws(StateError)
    -> [DecidedOutcome]
  {
    var decided: [DecidedOutcome] = []
    try forEachDecidedOutcome(since: since, until: until) { decided.append($0) }
    return decided
  }

  /// The requests `decidedOutcomes` reads, each handed to `body` as its row is read; a row
  /// that cannot be read (a packed notification whose certificate is gone) stops the reading
  /// with its error.
  public func forEachDecidedOutcome(
    since: Date?, until: Date?, _ body: (DecidedOutcome) -> Void
  ) throws(StateError) {
    try locked { () throws(StateError) in
      var failure: StateError?
      // One look-up of a request's outcomes, in order, each with how a refund was made: the
      // report reads a million requests, and a look-up per column multiplies its time.
      try connection.forEachRow(
        """
        SELECT r.received_at, d.action, d.rule, d.policy_name, d.body,
          CASE WHEN \(summaryColumn("r", "summarized")) = 0 THEN r.raw_notification END,
          e.state, CASE WHEN e.state = 'sent' THEN e.body END,
          \(outcomesOfRequest),
          r.id, \(rawFormat("r")), r.environment, d.policy_version, d.policy_sha256,
          \(["price", "currency", "reason", "product_type", "summarized"].map { summaryColumn("r", $0) }.joined(separator: ", "))
        FROM requests r LEFT JOIN decisions d ON d.id = (SELECT max(id) FROM decisions WHERE request_id = r.id)
          LEFT JOIN outbox e ON e.decision_id = d.id
        WHERE r.received_at >= ? AND r.received_at < ? AND \(reportedRequest)
        ORDER BY r.received_at, r.id
        """, SQLiteStateStore.range(since, until)
      ) { row in
        guard failure == nil else { return }
        do throws(StateError) { body(try decidedOutcome(row)) } catch { failure = error }
      }
      if let failure { throw failure }
    }
  }

  private func decidedOutcome(_ row: SQLiteRow) throws(StateError) -> DecidedOutcome {
    let attached = AttachedOutcomes(row.text(8))
    let summarized = (row.int(18) ?? 0) != 0
    return DecidedOutcome(
      receivedAt: row.date(0) ?? Date(timeIntervalSince1970: 0),
      action: row.text(1) ?? DecidedOutcome.imported,
      rule: row.text(2) ?? "", policyName: row.text(3) ?? "", body: row.blob(4),
      rawNotification: try row.blob(5).map { raw throws(StateError) in
        try receivedNotification(raw, format: row.int(10) ?? 0, requestId: row.int(9) ?? 0)
      } ?? Data(),
      outboxState: row.text(6), sentBody: row.blob(7), outcomes: attached.types,
      revocationType: attached.revocationType, revocationPercentage: attached.revocationPercentage,
      summary: summarized
        ? RequestSummary(
          price: row.int(14), currency: row.text(15), reason: row.text(16),
          productType: row.text(17)) : nil,
      environment: row.text(11) ?? "", policyVersion: row.text(12), policySHA256: row.text(13))
  }

  /// A request's outcomes (`r`), oldest first, as `AttachedOutcomes` reads them. Read through
  /// the index on (request, time, id), forced, whose order a scan of one request's entries
  /// follows and the list takes (a sort per request in a subquery is far slower over a
  /// million requests; the conformance suite pins the order). A file older than the index
  /// (read-only, as it is) sorts.
  private var outcomesOfRequest: String {
    let parts =
      "o.type || ' ' || COALESCE(o.revocation_type, '') || ' ' || COALESCE(o.revocation_percentage, '')"
    guard readVersion >= StateSchema.outcomesByRequest else {
      return """
        (SELECT group_concat(type || ' ' || COALESCE(revocation_type, '') || ' '
            || COALESCE(revocation_percentage, ''), ',')
          FROM (SELECT o.type, o.revocation_type, o.revocation_percentage FROM outcomes o
            WHERE o.request_id = r.id ORDER BY o.occurred_at, o.id))
        """
    }
    return """
      (SELECT group_concat(\(parts), ',') FROM outcomes o INDEXED BY outcomes_by_request
        WHERE o.request_id = r.id)
      """
  }

  /// `alias.name`, one of a request's summary columns; in a file older than
  /// `StateSchema.requestSummaries` read as it is, what a row recorded without one holds.
  func summaryColumn(_ alias: String, _ name: String) -> String {
    guard readVersion < StateSchema.requestSummaries else { return "\(alias).\(name)" }
    return name == "summarized" ? "0" : "NULL"
  }

  /// The requests the outcomes report reads (`r` the request, `d` its latest decision): the
  /// decided ones, and the CONSUMPTION_REQUESTs imported from history and never decided.
  var reportedRequest: String {
    """
    (d.id IS NOT NULL OR (r.imported = 1 AND r.notification_type IN (\(requestTypeSQL)) AND r.repeat_of IS NULL))
    """
  }

  /// Whether a notification with this UUID is stored, as a request or an outcome.
  public func hasNotification(uuid: String) throws(StateError) -> Bool {
    try locked { () throws(StateError) in
      let found = try connection.query(
        "SELECT EXISTS (SELECT 1 FROM requests WHERE notification_uuid = ?) OR EXISTS (SELECT 1 FROM outcomes WHERE notification_uuid = ?)",
        [.text(uuid), .text(uuid)])
      return (found.first?.int(0) ?? 0) != 0
    }
  }

  /// Records how Apple refunded, on an outcome already attached.
  public func recordRevocation(notificationUUID: String, type: String?, percentage: Int?)
    throws(StateError)
  {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE outcomes SET revocation_type = ?, revocation_percentage = ? WHERE notification_uuid = ?",
        [.optional(type), .optional(percentage), .text(notificationUUID)])
    }
  }

  private static func range(_ since: Date?, _ until: Date?) -> [SQLiteValue] {
    [.real(since?.timeIntervalSince1970 ?? -1e18), .real(until?.timeIntervalSince1970 ?? 1e18)]
  }
}
