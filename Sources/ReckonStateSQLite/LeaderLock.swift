import Foundation
import ReckonState

#if canImport(Glibc)
  import Glibc
#endif

/// The lead of a state database among the processes using it: an flock on `STATE.lead.lock`,
/// tried without waiting at each refresh until it is held. One service uses an SQLite state, but
/// a second `reckon serve` started on it by mistake (one that does not send, so the sender lock
/// does not stop it) then follows, running no retries or pruning beside the first. Where the
/// lock file cannot be made (a read-only folder), the lease leads, as the one service would.
public final class LeaderLock: LeaderLease, @unchecked Sendable {
  /// The lock file.
  public let path: String
  private let lock = NSLock()
  private var descriptor: Int32 = -1
  private var leads = false
  private var released = false

  /// The lead of the state database at `statePath`, taken now if no other process holds it.
  public init(statePath: String) {
    path = SenderLock.lockFile(forState: statePath, "lead")
    _ = refresh()
  }

  deinit { release() }

  /// Whether this process leads: a lock held stays held; otherwise it is tried once, without
  /// waiting. A released lease is not taken again.
  public func refresh() -> Bool {
    lock.withLock {
      guard !released else { return false }
      guard descriptor < 0 else { return true }
      // Close-on-exec, so no child process keeps the lead after this one gives it up.
      let opened = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
      guard opened >= 0 else {
        leads = true
        return true
      }
      guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
        close(opened)
        leads = false
        return false
      }
      descriptor = opened
      leads = true
      return true
    }
  }

  /// Whether this process led at the last refresh.
  public var isLeader: Bool { lock.withLock { leads && !released } }

  /// Gives the lead up (closing the file releases the flock); later calls do nothing.
  public func release() {
    let held = lock.withLock { () -> Int32 in
      released = true
      leads = false
      defer { descriptor = -1 }
      return descriptor
    }
    if held >= 0 { close(held) }
  }
}
