import Foundation
import ReckonState

extension PostgresStateStore: PolicyArchive {
  /// Keeps `policy` as its app's last live policy, in place of the one kept before, for every
  /// instance: the one that restarts next starts with it when its policy file does not check.
  public func archiveLivePolicy(_ policy: ArchivedPolicy) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        """
        INSERT INTO live_policies (bundle_id, environment, source, text, text_sha256, live_at)
        VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (bundle_id, environment)
        DO UPDATE SET source = excluded.source, text = excluded.text,
          text_sha256 = excluded.text_sha256, live_at = excluded.live_at
        """,
        [
          .text(policy.app.bundleId), .text(policy.app.environment), .text(policy.source),
          .text(policy.text), .text(policy.textSHA256), .date(policy.wentLiveAt),
        ])
    }
  }

  /// The last live policy kept for `app`, if any.
  public func lastLivePolicy(app: AppKey) throws(StateError) -> ArchivedPolicy? {
    try locked { () throws(StateError) in
      guard
        let row = try connection.query(
          """
          SELECT source, text, text_sha256, live_at FROM live_policies
          WHERE bundle_id = $1 AND environment = $2
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
