/// The values one attempt recorded, in evaluation order: a view of the trace's one list of every
/// value, so a traced decision allocates that list once rather than one array per rule tried.
public struct TraceConditionValues: RandomAccessCollection, Hashable, Sendable {
  private let storage: ContiguousArray<PolicyTrace.ConditionValue>
  private let range: Range<Int>

  init(_ storage: ContiguousArray<PolicyTrace.ConditionValue>, _ range: Range<Int>) {
    self.storage = storage
    self.range = range
  }

  /// No values.
  public init() { self.init([], 0..<0) }

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
    self.init(ContiguousArray(values), 0..<values.count)
  }
}
