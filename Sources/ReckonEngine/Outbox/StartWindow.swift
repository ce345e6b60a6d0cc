import Foundation

/// The sends this process began in the last second, per app key, so no second of them, however
/// aligned, holds more than the rate allows. The pacing slots space sends `1/rate` apart, but a
/// send whose slot came while its thread could not run (a busy machine) starts late, beside the
/// next ones: this admits it only once the window has room.
final class StartWindow: @unchecked Sendable {
  private let lock = NSLock()
  private var starts: [String: [Date]] = [:]

  /// Waits until a send for `key` may begin without more than `rate` (rounded down, at least
  /// one) beginning in any second, and records it as begun; the time it began, or nil when
  /// `isStopped` said to stop (or the task was cancelled) first.
  func admit(
    _ key: String, rate: Double, clock: any OutboxClock, isStopped: @Sendable () -> Bool
  ) async -> Date? {
    let limit = max(1, Int(rate.rounded(.down)))
    while true {
      let now = clock.now()
      let free: Date? = lock.withLock {
        // Starts after `now` are from before the clock stepped back: they no longer say when.
        var recent = (starts[key] ?? []).filter { $0 > now.addingTimeInterval(-1) && $0 <= now }
        guard recent.count >= limit else {
          recent.append(now)
          starts[key] = recent
          return nil
        }
        starts[key] = recent
        return recent[recent.count - limit].addingTimeInterval(1)
      }
      guard let free else { return now }
      if isStopped() || Task.isCancelled { return nil }
      try? await clock.sleep(until: min(free, now.addingTimeInterval(0.5)))
      await Task.yield()
    }
  }
}
