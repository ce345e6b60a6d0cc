import Foundation
import ReckonTestSupport

/// A `SplitMix64` shared between threads (the stand-in answers on its connection threads, the
/// sender draws jitter on the cooperative pool), behind a lock.
final class SharedRandom: @unchecked Sendable {
  private let lock = NSLock()
  private var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  /// A number in `range`.
  func next(in range: ClosedRange<Int>) -> Int {
    lock.withLock { .random(in: range, using: &generator) }
  }

  /// A number in [0, 1).
  func unit() -> Double { lock.withLock { .random(in: 0..<1, using: &generator) } }
}
