/// The facts a trace read, in first-read order, each marked missing or not. The first eight
/// reads of slots under 64 (every fact of the shipped schemas), what a typical policy makes,
/// are kept in one word of the value itself, so a traced decision allocates no list for them;
/// any read after one that is not goes to a list, so the order holds.
struct TracedFactReads: Hashable, Sendable {
  /// Reads after the inline ones, each its slot times two, plus one when missing.
  private var overflow: [Int] = []
  /// The inline reads: six bits of slot each from bit 0, the first lowest; bit 48 + `i` set
  /// when read `i` was of a missing fact; their count from bit 56. One word, so a trace, which
  /// every evaluation's decision carries (nil when untraced), is no larger than two lists.
  private var inline: UInt64 = 0

  private static let inlineLimit = 8

  private var inlineCount: Int { Int(truncatingIfNeeded: inline >> 56) }

  /// Records a read of `slot`, of a fact that was `missing` or not.
  @inline(__always)
  mutating func append(_ slot: Int, missing: Bool) {
    let count = inlineCount
    guard overflow.isEmpty, count < Self.inlineLimit, (0..<64).contains(slot) else {
      overflow.append(slot &* 2 + (missing ? 1 : 0))
      return
    }
    inline |= UInt64(slot) << UInt64(6 * count)
    if missing { inline |= 1 << UInt64(48 + count) }
    inline += 1 << 56
  }

  /// Every read as (slot, missing), in order.
  private var reads: [(slot: Int, missing: Bool)] {
    var reads: [(slot: Int, missing: Bool)] = []
    reads.reserveCapacity(inlineCount + overflow.count)
    for index in 0..<inlineCount {
      let slot = Int(truncatingIfNeeded: inline >> UInt64(6 * index) & 0x3F)
      reads.append((slot, inline & (1 << UInt64(48 + index)) != 0))
    }
    for entry in overflow { reads.append((entry >> 1, entry & 1 == 1)) }
    return reads
  }

  /// The slots read, in order.
  var slots: [Int] { reads.map(\.slot) }

  /// The slots read that were missing, in order.
  var missingSlots: [Int] { reads.filter(\.missing).map(\.slot) }

  /// Whether `slot` was read.
  func contains(_ slot: Int) -> Bool { reads.contains { $0.slot == slot } }
}
