import Foundation
import ReckonSupport

/// What pruning the state database removed, or for a dry run would remove.
public struct PruneCounts: Hashable, Sendable, Codable {
  /// Notifications (rows of `requests`): refund requests, their repeats, and other notifications.
  public var notifications = 0
  /// Decisions made for them, with their facts and explanations.
  public var decisions = 0
  /// Outbox entries of those decisions.
  public var entries = 0
  /// Delivery attempts of those entries, operator commands included.
  public var attempts = 0
  /// Apple's outcomes (refunded, declined, reversed, revoked) attached to them, or attached to
  /// none and reported before the cutoff.
  public var outcomes = 0

  /// Creates counts.
  public init(
    notifications: Int = 0, decisions: Int = 0, entries: Int = 0, attempts: Int = 0,
    outcomes: Int = 0
  ) {
    self.notifications = notifications
    self.decisions = decisions
    self.entries = entries
    self.attempts = attempts
    self.outcomes = outcomes
  }

  /// Whether nothing was (or would be) removed.
  public var isEmpty: Bool { self == PruneCounts() }

  /// Each count in words, with thousands separators: `1,956 notifications`, `1 attempt`.
  public var described: [String] {
    [
      (notifications, "notification"), (decisions, "decision"), (entries, "outbox entry"),
      (attempts, "attempt"), (outcomes, "outcome"),
    ].map { count, noun in
      "\(GroupedNumber.text(count)) "
        + (count == 1 ? noun : noun == "outbox entry" ? "outbox entries" : noun + "s")
    }
  }

  /// Both counts added up.
  public static func + (left: PruneCounts, right: PruneCounts) -> PruneCounts {
    PruneCounts(
      notifications: left.notifications + right.notifications,
      decisions: left.decisions + right.decisions, entries: left.entries + right.entries,
      attempts: left.attempts + right.attempts, outcomes: left.outcomes + right.outcomes)
  }
}
