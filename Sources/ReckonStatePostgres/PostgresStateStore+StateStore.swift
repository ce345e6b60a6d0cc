import Foundation
import ReckonState

/// The shared backend passes the same suite as every other; its pacing and claims live in the
/// database, so every instance keeps to them.
extension PostgresStateStore: StateStore {
  /// Reserves `key`'s next slot in its `send_pacing` row, locked while it is read and written,
  /// so instances together keep to `rate`.
  public func reserveSendSlot(_ key: String, rate: Double, now: Date) throws(StateError) -> Date {
    try withPace(key) { (pace: inout SendPace) in pace.reserve(rate: rate, now: now) }
  }

  public func holdSends(_ key: String, until: Date, now: Date) throws(StateError) -> Date {
    try withPace(key) { (pace: inout SendPace) in pace.hold(until: until, now: now) }
  }

  public func restoreHold(_ key: String, until: Date, now: Date) throws(StateError) {
    try withPace(key) { (pace: inout SendPace) in pace.restore(until: until, now: now) }
  }

  public func sendsHeldUntil(_ key: String, now: Date) throws(StateError) -> Date? {
    try locked { () throws(StateError) in
      try connection.query(
        "SELECT held_until FROM send_pacing WHERE key = $1", [.text(key)]
      ).first?.date(0).flatMap { $0 > now ? $0 : nil }
    }
  }

  /// Every instance sends: their starts are kept here.
  public var sharesSendStarts: Bool { true }

  /// Admits a start of `key` under the key's pacing row lock, so instances admitting at once
  /// see each other's starts. The window is kept on the database's clock, which every instance
  /// shares, so one whose own clock is off neither crowds the others nor hides its starts from
  /// them; the time returned is on the caller's clock, `now` being its present.
  public func admitSendStart(_ key: String, rate: Double, now: Date) throws(StateError) -> Date? {
    let limit = max(1, Int(rate.rounded(.down)))
    return try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) -> Date? in
        try connection.query(
          "INSERT INTO send_pacing (key) VALUES ($1) ON CONFLICT (key) DO NOTHING", [.text(key)])
        try connection.query("SELECT 1 FROM send_pacing WHERE key = $1 FOR UPDATE", [.text(key)])
        guard
          let databaseNow = try connection.query(
            "SELECT extract(epoch FROM clock_timestamp())::double precision", []
          ).first?.date(0)
        else {
          throw .statementFailed(
            operation: "admitting a send", message: "clock_timestamp() gave no time")
        }
        try connection.query(
          "DELETE FROM send_starts WHERE key = $1 AND started_at <= $2",
          [.text(key), .date(databaseNow.addingTimeInterval(-1))])
        // Starts after now are from before the database's clock stepped back: they no longer
        // say when.
        let recent = try connection.query(
          """
          SELECT started_at FROM send_starts WHERE key = $1 AND started_at <= $2
          ORDER BY started_at
          """, [.text(key), .date(databaseNow)]
        ).compactMap { $0.date(0) }
        guard recent.count < limit else {
          let free = recent[recent.count - limit].addingTimeInterval(1)
          return now.addingTimeInterval(free.timeIntervalSince(databaseNow))
        }
        try connection.query(
          "INSERT INTO send_starts (key, started_at) VALUES ($1, $2)",
          [.text(key), .date(databaseNow)])
        return nil
      }
    }
  }

  public func sendAccepted(_ key: String) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "UPDATE send_pacing SET holds_in_row = 0 WHERE key = $1 AND holds_in_row <> 0",
        [.text(key)])
    }
  }

  /// Claims the request for this store until `claimLifetime` passes on the database's clock;
  /// a claim whose holder never released it is taken over once it lapses.
  public func claimRequest(_ requestId: Int64) throws(StateError) -> Bool {
    try locked { () throws(StateError) in
      try !connection.query(
        """
        INSERT INTO request_claims (request_id, holder, claimed_until)
        VALUES ($1, $2, extract(epoch FROM clock_timestamp()) + $3)
        ON CONFLICT (request_id) DO UPDATE
          SET holder = excluded.holder, claimed_until = excluded.claimed_until
          WHERE request_claims.claimed_until < extract(epoch FROM clock_timestamp())
        RETURNING 1
        """, [.integer(requestId), .text(holder), .double(Self.claimLifetime)]
      ).isEmpty
    }
  }

  public func releaseRequest(_ requestId: Int64) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.query(
        "DELETE FROM request_claims WHERE request_id = $1 AND holder = $2",
        [.integer(requestId), .text(holder)])
    }
  }

  /// A sender's lease, which every instance takes at once: the outbox's claims keep their sends
  /// apart.
  public func takeSenderLease() -> any SenderLease {
    PostgresSenderLease(address: address)
  }

  public func isOwnLease(_ lease: any SenderLease) -> Bool {
    guard let lease = lease as? PostgresSenderLease else { return false }
    return lease.isHeld && lease.address == address
  }

  /// The lead, an advisory lock on a connection of its own, taken at its first `refresh()`.
  public func takeLeaderLease() -> any LeaderLease {
    PostgresLeaderLease(address: address)
  }

  /// Runs `change` on `key`'s pace, read and written back under a row lock.
  private func withPace<T>(_ key: String, _ change: (inout SendPace) -> T) throws(StateError) -> T {
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.query(
          "INSERT INTO send_pacing (key) VALUES ($1) ON CONFLICT (key) DO NOTHING", [.text(key)])
        let row = try connection.query(
          """
          SELECT next_free, held_until, holds_in_row, latest_now FROM send_pacing
          WHERE key = $1 FOR UPDATE
          """, [.text(key)]
        ).first
        var pace = SendPace(
          nextFree: row?.date(0), heldUntil: row?.date(1), holdsInARow: Int(row?.int(2) ?? 0),
          latestNow: row?.date(3))
        let result = change(&pace)
        try connection.query(
          """
          UPDATE send_pacing SET next_free = $2, held_until = $3, holds_in_row = $4,
            latest_now = $5
          WHERE key = $1
          """,
          [
            .text(key), .optional(pace.nextFree), .optional(pace.heldUntil),
            .integer(Int64(pace.holdsInARow)), .optional(pace.latestNow),
          ])
        return result
      }
    }
  }
}

extension PostgresStateStore: OutboxChangeNotifier {
  /// Listens on a connection of its own for the changes every instance notifies.
  public func listenForOutboxChanges(_ changed: @escaping @Sendable () -> Void)
    -> any OutboxListener
  {
    PostgresOutboxListener(address: address, changed: changed)
  }
}
