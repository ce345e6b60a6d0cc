import Foundation
import ReckonEngine
import Synchronization

/// Shared between a running dry-run and whoever watches it: how far it got, and a stop request
/// (Ctrl-C) that makes it finish with what it has decided so far.
public final class DryRunControl: Sendable {
  private let done = Atomic<Int>(0)
  private let total = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)
  private let started = ContinuousClock.now
  /// At most this many requests a second, for demonstrations and tests of stopping; nil is no limit.
  public let pace: Double?

  /// A control with nothing done; `pace` slows the run to that many requests a second.
  public init(pace: Double? = nil) {
    self.pace = pace
  }

  /// Asks the run to stop soon; it returns a partial result.
  public func stop() { stopped.store(true, ordering: .relaxed) }

  /// Whether a stop was asked for.
  public var isStopped: Bool { stopped.load(ordering: .relaxed) }

  /// Requests decided so far.
  public var completed: Int { done.load(ordering: .relaxed) }

  /// Requests the run will decide in all, once known.
  public var expected: Int { total.load(ordering: .relaxed) }

  func expect(_ count: Int) { total.store(count, ordering: .relaxed) }

  func advance(by count: Int) {
    let total = done.add(count, ordering: .relaxed).newValue
    guard let pace, pace > 0 else { return }
    let due = started + .milliseconds(Int64(Double(total) / pace * 1000))
    let now = ContinuousClock.now
    if due > now {
      Thread.sleep(
        forTimeInterval: Double((due - now).components.attoseconds) / 1e18
          + Double((due - now).components.seconds))
    }
  }
}
