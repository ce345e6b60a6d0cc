import ReckonEngine

/// A skip reason held once for the many verdicts that give it, with the outcome class it counts
/// under. Equal by the reason, so verdicts compare as their actions do.
final class SharedSkipReason: Hashable, Sendable {
  /// Why nothing is sent.
  let reason: SkipReason
  /// The class summaries count the skip under.
  let outcome: DryRunOutcome

  init(_ reason: SkipReason) {
    self.reason = reason
    outcome = DryRunOutcome(skipping: reason)
  }

  static func == (left: SharedSkipReason, right: SharedSkipReason) -> Bool {
    left === right || left.reason == right.reason
  }

  func hash(into hasher: inout Hasher) { hasher.combine(reason) }
}

/// The skip reasons one thread of a dry-run gave last, handed out again for an equal reason:
/// a million skips then share a few objects rather than each holding its own strings.
struct SharedSkipReasons {
  private var recent: [SharedSkipReason] = []
  private var next = 0
  private let capacity: Int

  /// Remembers up to `capacity` reasons; 0 shares nothing.
  init(capacity: Int = 16) { self.capacity = capacity }

  /// `reason`, shared with an equal one given before when it is still remembered.
  mutating func shared(_ reason: SkipReason) -> SharedSkipReason {
    if let found = recent.first(where: { $0.reason == reason }) { return found }
    let made = SharedSkipReason(reason)
    guard capacity > 0 else { return made }
    if recent.count < capacity {
      recent.append(made)
    } else {
      recent[next] = made
      next = (next + 1) % capacity
    }
    return made
  }
}
