import Foundation
import ReckonState

/// The embedded backend passes the same suite as every other.
extension SQLiteStateStore: StateStore {
  public func reserveSendSlot(_ key: String, rate: Double, now: Date) -> Date {
    pacing.reserve(key, rate: rate, now: now)
  }

  public func holdSends(_ key: String, until: Date, now: Date) -> Date {
    pacing.hold(key, until: until, now: now)
  }

  public func restoreHold(_ key: String, until: Date, now: Date) {
    pacing.restore(key, until: until, now: now)
  }

  public func sendsHeldUntil(_ key: String, now: Date) -> Date? {
    pacing.heldUntil(key, now: now)
  }

  public func sendAccepted(_ key: String) { pacing.accepted(key) }

  public func claimRequest(_ requestId: Int64) -> Bool { claims.claim(requestId) }

  public func releaseRequest(_ requestId: Int64) { claims.release(requestId) }

  /// The lock file beside the database (`STATE.send.lock`).
  public func takeSenderLease() throws(SenderLockError) -> any SenderLease {
    try SenderLock(statePath: path)
  }

  public func isOwnLease(_ lease: any SenderLease) -> Bool {
    let standard = { URL(fileURLWithPath: $0).standardizedFileURL.path }
    return lease.isHeld && lease is SenderLock
      && standard(lease.name) == standard(SenderLock.path(forState: path))
  }

  /// The lock file beside the database (`STATE.lead.lock`): one service uses a state file,
  /// and a second started on it by mistake follows.
  public func takeLeaderLease() -> any LeaderLease { LeaderLock(statePath: path) }
}
