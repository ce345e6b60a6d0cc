/// The right to run a sender over a state, taken from its backend before the first send and
/// held until released: a lock file for an embedded database, a lease row or an advisory lock
/// for a shared one.
public protocol SenderLease: AnyObject, Sendable {
  /// What holds it, for messages (a lock file's path).
  var name: String { get }
  /// Whether it is still held (not yet released).
  var isHeld: Bool { get }
  /// Whether no other sender can run on the state while it is held, so a send found in flight
  /// was left by a sender that stopped, and may be taken over at once rather than after its
  /// lease lapses.
  var isExclusive: Bool { get }
  /// Gives it up; later calls do nothing.
  func release()
}

/// Why a sender lease was not taken, or not accepted.
public enum SenderLockError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Another sender (another process, another `ReckonService` on the same state database, or
  /// `reckon send`) holds the lock.
  case heldByAnotherSender(path: String)
  /// The lock could not be created or taken (a read-only folder, no permission).
  case cannotOpen(path: String, reason: String)
  /// A lock handed to a sender was already released, or is the lock of another state, so it
  /// does not keep other senders away.
  case notHeld(path: String)

  /// One sentence naming the lock.
  public var description: String {
    switch self {
    case .heldByAnotherSender(let path):
      "another sender holds \(path): only one sender may use a state database at a time"
    case .cannotOpen(let path, let reason): "cannot take the sender lock \(path): \(reason)"
    case .notHeld(let path):
      "the sender lock \(path) handed to the sender is released or is another state database's"
    }
  }
}
