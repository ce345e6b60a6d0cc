import Synchronization

/// Set once, when `ReckonService.run()`'s caller is cancelled; the loops look at it between
/// steps, so work under way finishes rather than being cut off.
final class StopFlag: Sendable {
  private let value = Atomic(false)

  /// Asks the loops to stop.
  func set() { value.store(true, ordering: .releasing) }

  /// Whether the loops are asked to stop.
  func isSet() -> Bool { value.load(ordering: .acquiring) }
}
