import Synchronization

/// The right to do a state's once-only work (pruning, retrying undecided requests, reporting
/// lapsed ones): one instance among those sharing a state holds it at a time, and it moves to
/// another when its holder stops or dies.
public protocol LeaderLease: AnyObject, Sendable {
  /// Whether this instance leads now: checks that a lead held is still held, and otherwise
  /// tries to take it without waiting. Cheap enough to call every second.
  func refresh() -> Bool
  /// Whether this instance led at the last `refresh()`.
  var isLeader: Bool { get }
  /// Gives the lead up, for another instance to take; later calls do nothing.
  func release()
}

/// The lead of a state only one instance uses (an SQLite file): held until released.
public final class SoleLeaderLease: LeaderLease {
  private let released = Atomic(false)

  /// The lease, held.
  public init() {}

  /// Whether it is not released yet.
  public func refresh() -> Bool { isLeader }

  /// Whether it is not released yet.
  public var isLeader: Bool { !released.load(ordering: .acquiring) }

  /// Lets it go.
  public func release() { released.store(true, ordering: .releasing) }
}
