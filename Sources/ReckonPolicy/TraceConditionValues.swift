/// The values one attempt recorded, in evaluation order: a view of the trace's one list of every
/// value, so a traced decision allocates that list once rather than one array per rule tried.
public struct TraceConditionValues: RandomAccessCollection, Hashable, Sendable {
  private let storage: TracedValues
  private let range: Range<Int>

  init(_ storage: TracedValues, _ range: Range<Int>) {
    self.storage = storage
    self.range = range
  }

  /// No values.
  public init() { self.init(TracedValues(), 0..<0) }

  public var startIndex: Int { 0 }
  public var endIndex: Int { range.count }

  public subscript(position: Int) -> PolicyTrace.ConditionValue {
    precondition(indices.contains(position), "index out of range")
    return storage[range.lowerBound + position]
  }

  public static func == (left: TraceConditionValues, right: TraceConditionValues) -> Bool {
    left.elementsEqual(right)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for value in self { hasher.combine(value) }
  }
}

extension TraceConditionValues: ExpressibleByArrayLiteral {
  /// The values listed, for comparing a trace with what a test expects.
  public init(arrayLiteral values: PolicyTrace.ConditionValue...) {
    var storage = TracedValues()
    for value in values { storage.append(value.node, value.value) }
    self.init(storage, 0..<values.count)
  }
}
