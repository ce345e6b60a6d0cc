import Foundation

/// The time source of the sender, injected so tests run hours of retries in simulated time.
public protocol OutboxClock: Sendable {
  /// The current time.
  func now() -> Date
  /// Returns at or after `date` (at once if it has passed).
  func sleep(until date: Date) async throws
}

/// The wall clock.
public struct SystemClock: OutboxClock {
  /// The wall clock.
  public init() {}

  /// `Date()`.
  public func now() -> Date { Date() }

  /// Sleeps for real.
  public func sleep(until date: Date) async throws {
    let seconds = date.timeIntervalSinceNow
    if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
  }
}

/// A clock that only moves when told to or when something sleeps: `sleep(until:)` jumps there.
public final class SimulatedClock: OutboxClock, @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date

  /// Starts at `start`.
  public init(start: Date) {
    current = start
  }

  /// The simulated time.
  public func now() -> Date {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  /// Moves time forward to `date` (never back).
  public func sleep(until date: Date) async throws {
    advance(to: date)
  }

  /// Moves time forward to `date` (never back).
  public func advance(to date: Date) {
    lock.lock()
    defer { lock.unlock() }
    current = max(current, date)
  }

  /// Moves time forward by `seconds`.
  public func advance(by seconds: TimeInterval) {
    advance(to: now().addingTimeInterval(seconds))
  }
}
