import Foundation

/// Each key's `SendPace` in memory: the pacing a backend whose state has one sending process
/// keeps for its `SendPacing`.
public final class RateLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private var paces: [String: SendPace] = [:]

  /// The shortest hold after a first 429 (see `SendPace`).
  public static let minimumHold = SendPace.minimumHold
  /// The longest floor a run of 429s builds up to (see `SendPace`).
  public static let maximumHoldFloor = SendPace.maximumHoldFloor

  /// A limiter with no slot reserved and no key held.
  public init() {}

  /// Reserves the next slot for `key` at or after `now`, `rate` slots a second, and returns
  /// when it starts.
  public func reserve(_ key: String, rate: Double, now: Date) -> Date {
    lock.withLock { paces[key, default: SendPace()].reserve(rate: rate, now: now) }
  }

  /// Holds `key` after a 429 until `date` or the floor for this many 429s in a row from `now`,
  /// whichever is later; returns when the hold ends.
  @discardableResult
  public func hold(_ key: String, until date: Date, now: Date) -> Date {
    lock.withLock { paces[key, default: SendPace()].hold(until: date, now: now) }
  }

  /// Holds `key` until `date` as a hold recorded earlier, without counting a 429.
  public func restore(_ key: String, until date: Date, now: Date) {
    lock.withLock { paces[key, default: SendPace()].restore(until: date, now: now) }
  }

  /// When the hold on `key` ends, if it is held at `now`.
  public func heldUntil(_ key: String, now: Date) -> Date? {
    lock.withLock { paces[key]?.heldUntil(now: now) }
  }

  /// The store accepted a send for `key`: the next 429 starts the floor again from its shortest.
  public func accepted(_ key: String) {
    lock.withLock { paces[key]?.accepted() }
  }
}
