import Foundation

/// Exponential backoff with jitter: the n-th failure waits `initial × 2^(n-1)`, capped at
/// `maximum`, then scaled by a random factor in [0.5, 1) so many entries do not retry in step.
public struct Backoff: Sendable {
  /// The first delay.
  public var initial: TimeInterval
  /// The longest delay.
  public var maximum: TimeInterval
  /// How long before the deadline the last try goes, when the next delay would pass it.
  public var lastChanceMargin: TimeInterval
  /// Returns a number in [0, 1); injected so tests are deterministic.
  public var random: @Sendable () -> Double

  /// A backoff with the given bounds.
  public init(
    initial: TimeInterval, maximum: TimeInterval, lastChanceMargin: TimeInterval = 60,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.initial = initial
    self.maximum = maximum
    self.lastChanceMargin = lastChanceMargin
    self.random = random
  }

  /// The time to try again after `failures` failures, counting from `now`.
  public func delay(after failures: Int, from now: Date) -> Date {
    let exponent = Double(max(failures, 1) - 1)
    let base = min(maximum, initial * pow(2, min(exponent, 40)))
    return now.addingTimeInterval(base * (0.5 + 0.5 * random()))
  }
}
