import Foundation

/// Paces sends per app (a generic cell rate algorithm without bursts): each `reserve` returns the
/// time the next send may start, `1/rate` after the previous one. A 429 holds the app until
/// its `Retry-After`, and never for less than a floor that doubles with each 429 in a row, so a
/// `Retry-After` of now or the past (or a clock ahead of Apple's) does not become a hot loop.
public final class RateLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private var nextFree: [String: Date] = [:]
  private var heldUntil: [String: Date] = [:]
  private var throttlesInARow: [String: Int] = [:]
  private let rate: @Sendable (String) -> Double

  /// The shortest hold after a first 429; each further 429 in a row doubles it.
  public static let minimumHold: TimeInterval = 1
  /// The longest floor a run of 429s builds up to (Apple's own `Retry-After` may be longer).
  public static let maximumHoldFloor: TimeInterval = 60

  /// A limiter whose rate per key (requests per second) comes from `rate`.
  public init(rate: @escaping @Sendable (String) -> Double) {
    self.rate = rate
  }

  /// Reserves the next slot for `key` at or after `now`, and returns when it starts.
  public func reserve(_ key: String, now: Date) -> Date {
    lock.lock()
    defer { lock.unlock() }
    let slot = max(nextFree[key] ?? now, heldUntil[key] ?? now, now)
    nextFree[key] = slot.addingTimeInterval(1 / max(rate(key), 0.001))
    return slot
  }

  /// Holds `key` after a 429 until `date` or the floor for this many 429s in a row from `now`,
  /// whichever is later; returns when the hold ends.
  @discardableResult
  public func hold(_ key: String, until date: Date, now: Date) -> Date {
    lock.lock()
    defer { lock.unlock() }
    let inARow = (throttlesInARow[key] ?? 0) + 1
    throttlesInARow[key] = inARow
    let floor = min(
      RateLimiter.maximumHoldFloor, RateLimiter.minimumHold * pow(2, Double(min(inARow, 32) - 1)))
    let end = max(date, now.addingTimeInterval(floor), heldUntil[key] ?? date)
    heldUntil[key] = end
    return end
  }

  /// When the hold on `key` ends, if it is held at `now`.
  public func heldUntil(_ key: String, now: Date) -> Date? {
    lock.lock()
    defer { lock.unlock() }
    guard let end = heldUntil[key], end > now else { return nil }
    return end
  }

  /// Apple accepted a send for `key`: the next 429 starts the floor again from its shortest.
  public func accepted(_ key: String) {
    lock.lock()
    defer { lock.unlock() }
    throttlesInARow[key] = nil
  }
}
