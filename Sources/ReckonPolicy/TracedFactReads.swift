/// The facts a trace read, in first-read order, each marked missing or not. The first sixteen
/// reads of slots under 256, all a typical policy makes, are kept as bytes in the value itself,
/// so a traced decision allocates no list for them; any read after one that is not goes to a
/// list, so the order holds.
struct TracedFactReads: Hashable, Sendable {
  /// Reads after the inline ones, each its slot times two, plus one when missing.
  private var overflow: [Int] = []
  /// The slots of reads 0 to 7, a byte each, the first lowest.
  private var first: UInt64 = 0
  /// The slots of reads 8 to 15.
  private var second: UInt64 = 0
  /// How many reads are inline (the low byte), and from bit 8, bit `8 + i` set when inline read
  /// `i` was of a missing fact. Whole words only: a trace is copied out of every traced
  /// evaluation, and fields of a byte or two made that copy move parts of words.
  private var inlineState: UInt64 = 0

  private static let inlineLimit = 16

  private var inlineCount: Int { Int(truncatingIfNeeded: inlineState & 0xFF) }

  /// Records a read of `slot`, of a fact that was `missing` or not.
  @inline(__always)
  mutating func append(_ slot: Int, missing: Bool) {
    let count = inlineCount
    guard overflow.isEmpty, count < Self.inlineLimit, (0..<256).contains(slot) else {
      overflow.append(slot &* 2 + (missing ? 1 : 0))
      return
    }
    let shift = UInt64(count % 8) * 8
    if count < 8 {
      first |= UInt64(slot) << shift
    } else {
      second |= UInt64(slot) << shift
    }
    inlineState += 1
    if missing { inlineState |= 1 << UInt64(8 + count) }
  }

  /// Every read as (slot, missing), in order.
  private var reads: [(slot: Int, missing: Bool)] {
    var reads: [(slot: Int, missing: Bool)] = []
    reads.reserveCapacity(inlineCount + overflow.count)
    for index in 0..<inlineCount {
      let word = index < 8 ? first : second
      let slot = Int(truncatingIfNeeded: word >> (UInt64(index % 8) * 8) & 0xFF)
      reads.append((slot, inlineState & (1 << UInt64(8 + index)) != 0))
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
