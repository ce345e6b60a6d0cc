/// The rules a trace tried, in order: each attempt made when it is read, a view of the trace's
/// one list of values.
public struct TraceAttempts: RandomAccessCollection, Hashable, Sendable {
  private let tried: ContiguousArray<PolicyTrace.TriedRule>
  private let values: TracedValues

  init(tried: ContiguousArray<PolicyTrace.TriedRule>, values: TracedValues) {
    self.tried = tried
    self.values = values
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { tried.count }

  public subscript(position: Int) -> PolicyTrace.RuleAttempt {
    let rule = tried[position]
    return PolicyTrace.RuleAttempt(
      rule: rule.rule, result: rule.result,
      conditions: TraceConditionValues(values, rule.start..<rule.end))
  }

  public static func == (left: TraceAttempts, right: TraceAttempts) -> Bool {
    left.elementsEqual(right)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for attempt in self { hasher.combine(attempt) }
  }
}
