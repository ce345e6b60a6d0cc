import Foundation

/// What the state database holds now, for `/metrics` and `/healthz`: what a counter of events
/// cannot show, such as a reply that is late because no sender is running.
public struct StateGauges: Hashable, Sendable {
  /// Outbox entries by state name.
  public var outboxDepth: [String: Int]
  /// Entries still waiting (held, pending or sending) whose deadline has passed: no sender is
  /// running, or it is stuck.
  public var overdue: Int
  /// Requests without a decision whose deadline has not passed: waiting for a fact source.
  public var undecided: Int
  /// When the longest-waiting entry that is due (held or pending, its time come) fell due; nil
  /// when none waits. How far the senders lag behind.
  public var oldestDueSince: Date?
  /// The apps whose sending is paused now after a credentials problem, whichever instance met
  /// it: their replies wait, and the due lag does not show it, as a pause moves them later.
  public var paused: [AppKey] = []

  /// Gauges with the given values.
  public init(
    outboxDepth: [String: Int] = [:], overdue: Int = 0, undecided: Int = 0,
    oldestDueSince: Date? = nil
  ) {
    self.outboxDepth = outboxDepth
    self.overdue = overdue
    self.undecided = undecided
    self.oldestDueSince = oldestDueSince
  }

  /// How long the oldest due entry has waited at `now`, 0 when none waits.
  public func dueLag(now: Date) -> TimeInterval {
    oldestDueSince.map { max(0, now.timeIntervalSince($0)) } ?? 0
  }

  /// Entries held, pending or sending.
  public var waiting: Int {
    (outboxDepth["pending"] ?? 0) + (outboxDepth["held"] ?? 0) + (outboxDepth["sending"] ?? 0)
  }
}
