import Foundation
import ReckonState
import ReckonSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The advisory lock (flock on `STATE.send.lock`) that lets one sender at a time use a state
/// database: `reckon serve`, `reckon send` and `ReckonService.runSender` each hold it while they
/// send. Held until `release()` or deinit; the kernel releases it when the process ends, however
/// it ends. flock locks belong to an open file description, so two holders in one process
/// conflict just as two processes do.
public final class SenderLock: SenderLease, @unchecked Sendable {
  /// The lock file.
  public let path: String
  /// The lock file, as messages name the lease.
  public var name: String { path }
  /// Only one process holds an flock at a time.
  public var isExclusive: Bool { true }
  private let lock = NSLock()
  private var descriptor: Int32

  /// The lock file of the state database at `statePath`, beside the file a symbolic link in
  /// the path leads to: two configurations reaching one database through a link and its target
  /// must take one lock, not one each.
  public static func path(forState statePath: String) -> String {
    lockFile(forState: statePath, "send")
  }

  /// `STATE.KIND.lock` beside the database a symbolic link in `statePath` leads to.
  static func lockFile(forState statePath: String, _ kind: String) -> String {
    let given = URL(fileURLWithPath: statePath)
    let resolved = given.resolvingSymlinksInPath().path
    return (resolved == given.standardizedFileURL.path ? statePath : resolved) + ".\(kind).lock"
  }

  /// Takes the lock for the state database at `statePath` without waiting; throws when another
  /// sender holds it or the lock file cannot be opened.
  public init(statePath: String) throws(SenderLockError) {
    path = Self.path(forState: statePath)
    // Close-on-exec, so no child process keeps the lock after this one has released it.
    let opened = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard opened >= 0 else {
      throw .cannotOpen(
        path: path, reason: LocalFileError(path: path, errno: errno, writing: true).reason)
    }
    guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(opened)
      guard code == EWOULDBLOCK else {
        throw .cannotOpen(
          path: path, reason: LocalFileError(path: path, errno: code, writing: true).reason)
      }
      throw .heldByAnotherSender(path: path)
    }
    descriptor = opened
  }

  deinit { release() }

  /// Whether this lock is still held (not yet released).
  public var isHeld: Bool { lock.withLock { descriptor >= 0 } }

  /// Releases the lock (closing the file releases the flock); later calls do nothing.
  public func release() {
    let held = lock.withLock {
      defer { descriptor = -1 }
      return descriptor
    }
    if held >= 0 { close(held) }
  }
}
