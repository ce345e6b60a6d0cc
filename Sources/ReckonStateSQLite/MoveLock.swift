import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps `reckon state migrate` and the state's writers apart on one SQLite file: an flock on
/// `STATE.move.lock`, shared by every `reckon serve` for as long as it runs (and by the commands
/// that change the state while they do), exclusive for a move. A serve that only records holds
/// neither the sender lock nor, once another leads, the lead, so without this a move could run
/// beside it, or it could start during one, and what it answered 200 meanwhile would stay in
/// the file.
public final class MoveLock: @unchecked Sendable {
  /// Why the lock was not taken.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// A move holds the file.
    case moving(path: String)
    /// A service holds the file.
    case inUse(path: String)
    /// The lock file could not be opened or locked, so nothing would keep the two apart.
    case cannotOpen(path: String, reason: String)

    public var description: String {
      switch self {
      case .moving(let path):
        "reckon state migrate is moving \(path) to PostgreSQL; start the service once it has "
          + "finished, with state.url"
      case .inUse(let path):
        "a reckon serve (or a command changing the state) is using \(path); stop every "
          + "reckon serve and reckon send first"
      case .cannotOpen(let path, let reason):
        "cannot lock \(path) (\(reason)), which keeps a state migrate and the services apart; "
          + "let this user read it"
      }
    }
  }

  /// The lock file.
  public let path: String
  private let lock = NSLock()
  private var descriptor: Int32

  /// A service's hold on the state at `statePath`, beside any other service's; refused while a
  /// move holds it.
  public static func forService(statePath: String) throws(Refusal) -> MoveLock {
    try MoveLock(statePath: statePath, exclusive: false)
  }

  /// A move's hold on the state at `statePath`; refused while a service holds it.
  public static func forMove(statePath: String) throws(Refusal) -> MoveLock {
    try MoveLock(statePath: statePath, exclusive: true)
  }

  private init(statePath: String, exclusive: Bool) throws(Refusal) {
    path = SenderLock.lockFile(forState: statePath, "move")
    // Close-on-exec, so no child process keeps the hold after this one gives it up. Readable by
    // all, and opened read-only when it cannot be written: a file another user made (a move run
    // with sudo) must still keep that user's move and this service apart.
    var opened = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    if opened < 0 { opened = open(path, O_RDONLY | O_CLOEXEC) }
    guard opened >= 0 else {
      // No folder yet: no state to move either, and opening the state says what is wrong.
      let failure = errno
      descriptor = -1
      if failure == ENOENT, !exclusive { return }
      throw .cannotOpen(path: path, reason: String(cString: strerror(failure)))
    }
    descriptor = opened
    guard flock(opened, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
      let failure = errno
      close(opened)
      descriptor = -1
      guard failure == EWOULDBLOCK else {
        throw .cannotOpen(path: path, reason: String(cString: strerror(failure)))
      }
      throw exclusive ? .inUse(path: statePath) : .moving(path: statePath)
    }
  }

  deinit { release() }

  /// Gives the hold up (closing the file releases the flock); later calls do nothing.
  public func release() {
    lock.withLock {
      guard descriptor >= 0 else { return }
      close(descriptor)
      descriptor = -1
    }
  }
}
