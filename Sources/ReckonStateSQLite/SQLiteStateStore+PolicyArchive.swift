import Foundation
import ReckonState

extension SQLiteStateStore: PolicyArchive {
  /// Keeps `policy` as its app's last live policy, in place of the one kept before, so the next
  /// `reckon serve` can start with it when the policy file on disk does not check.
  public func archiveLivePolicy(_ policy: ArchivedPolicy) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        """
        INSERT OR REPLACE INTO live_policies (bundle_id, environment, source, text, text_sha256,
          live_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(policy.app.bundleId), .text(policy.app.environment), .text(policy.source),
          .text(policy.text), .text(policy.textSHA256), .date(policy.wentLiveAt),
        ])
    }
  }

  /// The last live policy kept for `app`, if any; none in a file older than
  /// `StateSchema.livePolicies` read as it is, which kept none.
  public func lastLivePolicy(app: AppKey) throws(StateError) -> ArchivedPolicy? {
    guard readVersion >= StateSchema.livePolicies else { return nil }
    return try locked { () throws(StateError) in
      guard
        let row = try connection.query(
          """
          SELECT source, text, text_sha256, live_at FROM live_policies
          WHERE bundle_id = ? AND environment = ?
          """, [.text(app.bundleId), .text(app.environment)]
        ).first
      else { return nil }
      guard let source = row.text(0), let text = row.text(1), let sha256 = row.text(2),
        let liveAt = row.date(3)
      else { throw .unreadableRow(what: "the live policy of \(app)", reason: "a column is null") }
      return ArchivedPolicy(
        app: app, source: source, text: text, textSHA256: sha256, wentLiveAt: liveAt)
    }
  }
}
