import Foundation

/// One key's pacing (a generic cell rate algorithm without bursts) and 429 holds, as a value a
/// backend keeps where its senders share it: in memory for one sending process (`RateLimiter`),
/// in a row for several. Each `reserve` returns the time the next send may start, a little over
/// `1/rate` after the previous one (see `jitterAllowance`). A 429 holds the key until its
/// `Retry-After`, and never for less than a floor that doubles with each 429 in a row, so a
/// `Retry-After` of now or the past (or a clock ahead of the store's) does not become a hot
/// loop.
///
/// The times are wall-clock times, as the sender's clock gives them. When that clock steps back
/// (NTP, an operator), the pacing slot moves back with it: otherwise the next slot would lie as
/// far in the future as the step, and a send would sleep that long in its slot, holding up the
/// drain for every app. Holds stay: the store's `Retry-After` is a time on the store's clock,
/// and a held app's entries wait in the state, not in a slot.
public struct SendPace: Hashable, Sendable {
  /// When the next slot is free.
  public var nextFree: Date?
  /// When the hold after a 429 ends.
  public var heldUntil: Date?
  /// How many 429s came in a row, without a send accepted between them.
  public var holdsInARow = 0
  /// The latest `now` seen, to notice the clock stepping back.
  public var latestNow: Date?

  /// How far a `now` may lag the latest one seen before it counts as the clock stepping back
  /// (concurrent sends read the clock a little apart).
  public static let clockStepTolerance: TimeInterval = 1
  /// The shortest hold after a first 429; each further 429 in a row doubles it.
  public static let minimumHold: TimeInterval = 1
  /// The longest floor a run of 429s builds up to (the store's own `Retry-After` may be longer).
  public static let maximumHoldFloor: TimeInterval = 60
  /// How much later than its slot a send may reach the store without `rate + 1` of them
  /// landing in one second of the store's clock: `rate` slots span a second and this much.
  /// Sends start late by the time a thread takes to wake and the request to travel, and
  /// exactly `1/rate` apart a window would hold one too many whenever its first send was
  /// later than its last.
  public static let jitterAllowance: TimeInterval = 0.1

  /// The time between two slots at `rate` a second.
  public static func spacing(rate: Double) -> TimeInterval {
    (1 + jitterAllowance) / max(rate, 0.001)
  }

  /// A key never paced or held.
  public init(
    nextFree: Date? = nil, heldUntil: Date? = nil, holdsInARow: Int = 0, latestNow: Date? = nil
  ) {
    self.nextFree = nextFree
    self.heldUntil = heldUntil
    self.holdsInARow = holdsInARow
    self.latestNow = latestNow
  }

  /// Reserves the next slot at or after `now`, `rate` slots a second; when it starts.
  public mutating func reserve(rate: Double, now: Date) -> Date {
    follow(now)
    let slot = max(nextFree ?? now, heldUntil ?? now, now)
    nextFree = slot.addingTimeInterval(Self.spacing(rate: rate))
    return slot
  }

  /// Holds after a 429 until `date` or the floor for this many 429s in a row from `now`,
  /// whichever is later; when the hold ends. A 429 that comes while already held answers a send
  /// that started before the hold, so it does not count as one more in a row.
  public mutating func hold(until date: Date, now: Date) -> Date {
    follow(now)
    let alreadyHeld = (heldUntil ?? .distantPast) > now
    let inARow = holdsInARow + (alreadyHeld ? 0 : 1)
    holdsInARow = max(inARow, 1)
    let floor = min(Self.maximumHoldFloor, Self.minimumHold * pow(2, Double(min(inARow, 32) - 1)))
    let end = max(date, now.addingTimeInterval(floor), heldUntil ?? date)
    heldUntil = end
    return end
  }

  /// Holds until `date` as a hold recorded earlier, without counting a 429.
  public mutating func restore(until date: Date, now: Date) {
    follow(now)
    heldUntil = max(date, heldUntil ?? date)
  }

  /// When the hold ends, if held at `now`.
  public func heldUntil(now: Date) -> Date? {
    guard let end = heldUntil, end > now else { return nil }
    return end
  }

  /// The store accepted a send: the next 429 starts the floor again from its shortest.
  public mutating func accepted() { holdsInARow = 0 }

  /// Moves the pacing slot back when the clock stepped back since the latest `now` seen.
  private mutating func follow(_ now: Date) {
    guard let latest = latestNow else {
      latestNow = now
      return
    }
    let step = now.timeIntervalSince(latest)
    guard step < -Self.clockStepTolerance else {
      latestNow = max(latest, now)
      return
    }
    nextFree = nextFree?.addingTimeInterval(step)
    latestNow = now
  }
}
