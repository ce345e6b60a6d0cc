import Foundation

/// Paces sends per key (a generic cell rate algorithm without bursts): each `reserve` returns
/// the time the next send may start, `1/rate` after the previous one. It is the pacing a backend
/// whose state has one sending process keeps in memory for its `SendPacing`. A 429 holds the app until
/// its `Retry-After`, and never for less than a floor that doubles with each 429 in a row, so a
/// `Retry-After` of now or the past (or a clock ahead of Apple's) does not become a hot loop.
///
/// The times are wall-clock times, as the sender's clock gives them. When that clock steps back
/// (NTP, an operator), the pacing slots move back with it: otherwise the next slot would lie as
/// far in the future as the step, and a send would sleep that long in its slot, holding up the
/// drain for every app. Holds stay: Apple's `Retry-After` is a time on Apple's clock, and a held
/// app's entries wait in the database, not in a slot.
public final class RateLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private var nextFree: [String: Date] = [:]
  private var heldUntil: [String: Date] = [:]
  private var throttlesInARow: [String: Int] = [:]
  private var latestNow: Date?

  /// How far a `now` may lag the latest one seen before it counts as the clock stepping back
  /// (concurrent sends read the clock a little apart).
  static let clockStepTolerance: TimeInterval = 1

  /// The shortest hold after a first 429; each further 429 in a row doubles it.
  public static let minimumHold: TimeInterval = 1
  /// The longest floor a run of 429s builds up to (Apple's own `Retry-After` may be longer).
  public static let maximumHoldFloor: TimeInterval = 60

  /// A limiter with no slot reserved and no key held.
  public init() {}

  /// Reserves the next slot for `key` at or after `now`, `rate` slots a second, and returns
  /// when it starts.
  public func reserve(_ key: String, rate: Double, now: Date) -> Date {
    lock.lock()
    defer { lock.unlock() }
    follow(now)
    let slot = max(nextFree[key] ?? now, heldUntil[key] ?? now, now)
    nextFree[key] = slot.addingTimeInterval(1 / max(rate, 0.001))
    return slot
  }

  /// Holds `key` after a 429 until `date` or the floor for this many 429s in a row from `now`,
  /// whichever is later; returns when the hold ends. A 429 that comes while the app is already
  /// held answers a send that started before the hold, so it does not count as one more in a row.
  @discardableResult
  public func hold(_ key: String, until date: Date, now: Date) -> Date {
    lock.lock()
    defer { lock.unlock() }
    follow(now)
    let alreadyHeld = (heldUntil[key] ?? .distantPast) > now
    let inARow = (throttlesInARow[key] ?? 0) + (alreadyHeld ? 0 : 1)
    throttlesInARow[key] = max(inARow, 1)
    let floor = min(
      RateLimiter.maximumHoldFloor, RateLimiter.minimumHold * pow(2, Double(min(inARow, 32) - 1)))
    let end = max(date, now.addingTimeInterval(floor), heldUntil[key] ?? date)
    heldUntil[key] = end
    return end
  }

  /// Holds `key` until `date` as a hold recorded earlier (by this sender before a restart, or
  /// another run), without counting a 429.
  public func restore(_ key: String, until date: Date, now: Date) {
    lock.lock()
    defer { lock.unlock() }
    follow(now)
    heldUntil[key] = max(date, heldUntil[key] ?? date)
  }

  /// When the hold on `key` ends, if it is held at `now`.
  public func heldUntil(_ key: String, now: Date) -> Date? {
    lock.lock()
    defer { lock.unlock() }
    follow(now)
    guard let end = heldUntil[key], end > now else { return nil }
    return end
  }

  /// Moves the pacing slots back when the clock stepped back since the latest `now` seen.
  /// Called with the lock held.
  private func follow(_ now: Date) {
    guard let latest = latestNow else {
      latestNow = now
      return
    }
    let step = now.timeIntervalSince(latest)
    guard step < -Self.clockStepTolerance else {
      latestNow = max(latest, now)
      return
    }
    nextFree = nextFree.mapValues { $0.addingTimeInterval(step) }
    latestNow = now
  }

  /// Apple accepted a send for `key`: the next 429 starts the floor again from its shortest.
  public func accepted(_ key: String) {
    lock.lock()
    defer { lock.unlock() }
    throttlesInARow[key] = nil
  }
}
