import Foundation
import ReckonState

extension PostgresStateStore {
  /// Pauses `app` until `until`, for every instance.
  public func pause(_ app: AppKey, until: Date, reason: String) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        """
        INSERT INTO app_pauses (bundle_id, environment, paused_until, reason)
        VALUES ($1, $2, $3, $4)
        ON CONFLICT (bundle_id, environment)
        DO UPDATE SET paused_until = excluded.paused_until, reason = excluded.reason
        """, [.text(app.bundleId), .text(app.environment), .date(until), .text(reason)])
    }
  }

  /// Ends a pause.
  public func resume(_ app: AppKey) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "DELETE FROM app_pauses WHERE bundle_id = $1 AND environment = $2",
        [.text(app.bundleId), .text(app.environment)])
    }
  }

  /// Every recorded pause, including ones that have run out.
  public func pauses() throws(StateError) -> [AppPause] {
    try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT bundle_id, environment, paused_until, reason FROM app_pauses
        ORDER BY bundle_id, environment
        """
      ).compactMap { row in
        guard let bundle = row.text(0), let environment = row.text(1), let until = row.date(2)
        else { return nil }
        return AppPause(
          app: AppKey(bundleId: bundle, environment: environment), until: until,
          reason: row.text(3) ?? "")
      }
    }
  }

  /// Records that the store holds `app` until `until`, keeping the later of this and a hold
  /// already recorded, and forgetting holds that ended before `now`.
  public func throttle(_ app: AppKey, until: Date, now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.query("DELETE FROM app_throttles WHERE held_until <= $1", [.date(now)])
        try connection.query(
          """
          INSERT INTO app_throttles (bundle_id, environment, held_until) VALUES ($1, $2, $3)
          ON CONFLICT (bundle_id, environment)
          DO UPDATE SET held_until = GREATEST(app_throttles.held_until, excluded.held_until)
          """, [.text(app.bundleId), .text(app.environment), .date(until)])
      }
    }
  }

  /// The apps the store still holds at `now`, with when each hold ends.
  public func throttles(now: Date) throws(StateError) -> [AppKey: Date] {
    try locked { () throws(StateError) in
      var held: [AppKey: Date] = [:]
      for row in try connection.query(
        "SELECT bundle_id, environment, held_until FROM app_throttles WHERE held_until > $1",
        [.date(now)])
      {
        guard let bundle = row.text(0), let environment = row.text(1), let until = row.date(2)
        else { continue }
        held[AppKey(bundleId: bundle, environment: environment)] = until
      }
      return held
    }
  }

  /// Moves every pending entry of `app` due before `until` to `until`.
  public func postponePending(_ app: AppKey, until: Date, now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        """
        UPDATE outbox SET state_at = $1, updated_at = $2, revision = revision + 1
        WHERE state = 'pending' AND bundle_id = $3 AND environment = $4 AND state_at < $1
        """, [.date(until), .date(now), .text(app.bundleId), .text(app.environment)])
    }
  }
}
