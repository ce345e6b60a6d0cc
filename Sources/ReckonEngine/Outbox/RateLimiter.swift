import Foundation

/// Paces sends per app (a generic cell rate algorithm without bursts): each `reserve` returns the
/// time the next send may start, `1/rate` after the previous one. A 429 holds the app until
/// its `Retry-After`.
public final class RateLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private var nextFree: [String: Date] = [:]
  private let rate: @Sendable (String) -> Double

  /// A limiter whose rate per key (requests per second) comes from `rate`.
  public init(rate: @escaping @Sendable (String) -> Double) {
    self.rate = rate
  }

  /// Reserves the next slot for `key` at or after `now`, and returns when it starts.
  public func reserve(_ key: String, now: Date) -> Date {
    lock.lock()
    defer { lock.unlock() }
    let slot = max(nextFree[key] ?? now, now)
    nextFree[key] = slot.addingTimeInterval(1 / max(rate(key), 0.001))
    return slot
  }

  /// Holds `key` until `date`.
  public func hold(_ key: String, until date: Date) {
    lock.lock()
    defer { lock.unlock() }
    nextFree[key] = max(nextFree[key] ?? date, date)
  }
}
