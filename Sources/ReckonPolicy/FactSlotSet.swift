/// A set of fact slots kept as bits: the facts a trace has listed. The first 64 slots, which
/// cover every fact of the shipped schemas, need no allocation.
struct FactSlotSet {
  private var low: UInt64 = 0
  private var high: [Bool]
  /// The slots the set can hold: 0 up to this.
  let count: Int

  /// An empty set of slots from 0 up to `count`.
  init(count: Int) {
    self.count = max(0, count)
    high = count > 64 ? Array(repeating: false, count: count - 64) : []
  }

  /// Whether `slot` is one the set can hold.
  func covers(_ slot: Int) -> Bool { (0..<count).contains(slot) }

  /// Whether `slot` is in the set.
  func contains(_ slot: Int) -> Bool {
    guard covers(slot) else { return false }
    return slot < 64 ? low & (1 << UInt64(slot)) != 0 : high[slot - 64]
  }

  /// Adds `slot`, one the set covers; false when it was already in.
  mutating func insert(_ slot: Int) -> Bool {
    guard covers(slot), !contains(slot) else { return false }
    if slot < 64 { low |= 1 << UInt64(slot) } else { high[slot - 64] = true }
    return true
  }
}
