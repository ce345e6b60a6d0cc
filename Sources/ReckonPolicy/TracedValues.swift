/// The values a trace recorded, node by node, in order. Booleans, numbers and enumeration cases,
/// which conditions nearly always have, are kept as plain bits, so recording one copies no
/// value and the list is freed without visiting each; any other value is kept aside.
struct TracedValues: Hashable, Sendable {
  private struct Entry: Hashable, Sendable {
    let node: Int
    let bits: UInt64
    let kind: Kind
  }

  private enum Kind: UInt8, Hashable, Sendable {
    case missing, boolean, number, percent, duration, timestamp, enumeration, other
  }

  private var entries: ContiguousArray<Entry> = []
  /// The values of kind `other`, by the index their entry's bits hold.
  private var others: [Value] = []

  /// How many values were recorded.
  var count: Int { entries.count }

  /// Makes room for `count` values.
  mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

  /// Records that `node` had `value` (nil: unknown).
  @inline(__always)
  mutating func append(_ node: Int, _ value: Value?) {
    switch value {
    case nil: entries.append(Entry(node: node, bits: 0, kind: .missing))
    case .boolean(let flag)?: entries.append(Entry(node: node, bits: flag ? 1 : 0, kind: .boolean))
    case .number(let number)?:
      entries.append(Entry(node: node, bits: number.bitPattern, kind: .number))
    case .percent(let percent)?:
      entries.append(Entry(node: node, bits: percent.bitPattern, kind: .percent))
    case .duration(let seconds)?:
      entries.append(Entry(node: node, bits: seconds.bitPattern, kind: .duration))
    case .timestamp(let seconds)?:
      entries.append(Entry(node: node, bits: seconds.bitPattern, kind: .timestamp))
    case .enumeration(let ordinal)?:
      entries.append(
        Entry(node: node, bits: UInt64(bitPattern: Int64(ordinal)), kind: .enumeration))
    case let other?:
      entries.append(Entry(node: node, bits: UInt64(others.count), kind: .other))
      others.append(other)
    }
  }

  /// The value recorded at `position`.
  subscript(position: Int) -> PolicyTrace.ConditionValue {
    let entry = entries[position]
    let value: Value?
    switch entry.kind {
    case .missing: value = nil
    case .boolean: value = .boolean(entry.bits != 0)
    case .number: value = .number(Double(bitPattern: entry.bits))
    case .percent: value = .percent(Double(bitPattern: entry.bits))
    case .duration: value = .duration(Double(bitPattern: entry.bits))
    case .timestamp: value = .timestamp(Double(bitPattern: entry.bits))
    case .enumeration: value = .enumeration(Int(Int64(bitPattern: entry.bits)))
    case .other: value = others[Int(entry.bits)]
    }
    return PolicyTrace.ConditionValue(node: entry.node, value: value)
  }
}
