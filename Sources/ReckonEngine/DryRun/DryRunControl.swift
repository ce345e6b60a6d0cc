import Foundation
import Synchronization

/// Shared between a running dry-run and whoever watches it: how far it got, and a stop request
/// (Ctrl-C) that makes it finish with what it has decided so far.
public final class DryRunControl: Sendable {
  private let done = Atomic<Int>(0)
  private let total = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)

  /// A control with nothing done.
  public init() {}

  /// Asks the run to stop soon; it returns a partial result.
  public func stop() { stopped.store(true, ordering: .relaxed) }

  /// Whether a stop was asked for.
  public var isStopped: Bool { stopped.load(ordering: .relaxed) }

  /// Requests decided so far.
  public var completed: Int { done.load(ordering: .relaxed) }

  /// Requests the run will decide in all, once known.
  public var expected: Int { total.load(ordering: .relaxed) }

  func expect(_ count: Int) { total.store(count, ordering: .relaxed) }

  func advance(by count: Int) { done.add(count, ordering: .relaxed) }
}
