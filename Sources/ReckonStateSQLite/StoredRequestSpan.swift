import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore {
  /// The CONSUMPTION_REQUESTs a dry-run over the database reads when given no window; with
  /// `decided`, the requests the outcomes report reads (decided, or imported).
  public func requestSpan(decided: Bool) throws(StateError) -> StoredRequestSpan {
    // The same selections as `storedRequests` and `decidedOutcomes`, without their window.
    let selection =
      decided
      ? reportedRequest
      : "r.notification_type IN (\(requestTypeSQL)) AND r.repeat_of IS NULL"
    let row = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT count(*), min(r.received_at), max(r.received_at) FROM requests r
          LEFT JOIN decisions d ON d.id = (SELECT max(id) FROM decisions WHERE request_id = r.id)
        WHERE \(selection)
        """
      ).first
    }
    return StoredRequestSpan(
      count: Int(row?.int(0) ?? 0), first: row?.date(1), last: row?.date(2))
  }
}
