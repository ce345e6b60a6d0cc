/// What an evaluation looked at: each rule tried with its result, each condition's value, each
/// fact read. Recorded only when asked for, so deciding without it stays fast.
public struct PolicyTrace: Hashable, Sendable {
  /// One rule that was tried.
  public struct RuleAttempt: Hashable, Sendable {
    /// The rule's index in the policy.
    public let rule: Int
    /// true, false, or nil for unknown (a fact it needed was missing).
    public let result: Bool?
    /// The value of each condition evaluated while trying it, in evaluation order.
    public let conditions: TraceConditionValues
  }

  /// A rule tried, as recorded: where its values are in `values`.
  struct TriedRule: Hashable, Sendable {
    let rule: Int
    var result: Bool?
    let start: Int
    var end: Int
  }

  /// One `hold` clause whose condition was evaluated.
  public struct HoldAttempt: Hashable, Sendable {
    /// The clause's index in the policy.
    public let hold: Int
    /// true, false, or nil for unknown.
    public internal(set) var result: Bool?
    /// The value of each condition evaluated while trying it, in evaluation order.
    public internal(set) var conditions = TraceConditionValues()
    /// Where its values start in the recorder's list, while it is being recorded.
    var start = 0

    public static func == (left: HoldAttempt, right: HoldAttempt) -> Bool {
      left.hold == right.hold && left.result == right.result && left.conditions == right.conditions
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(hold)
      hasher.combine(result)
      hasher.combine(conditions)
    }
  }

  /// The value one node had.
  public struct ConditionValue: Hashable, Sendable {
    /// The node's id; `CheckedPolicy.nodeSpans[node]` is where it was written.
    public let node: Int
    /// Its value, or nil for unknown.
    public let value: Value?
  }

  /// The rules tried, in order; the last one with result true decided.
  public var attempts: TraceAttempts { TraceAttempts(tried: tried, values: values) }
  /// The rules tried, as recorded: ranges of `values` rather than lists of their own, so a
  /// traced decision allocates one list of values, not one per rule tried.
  var tried: ContiguousArray<TriedRule> = []
  /// The values every rule tried and every hold recorded, in order.
  var values = TracedValues()
  /// The slots of the facts read, in first-read order.
  public var factsRead: [Int] { reads.slots }
  /// The slots of facts that were read but missing, in first-read order.
  public var missingFacts: [Int] { reads.missingSlots }
  /// The facts read, as recorded.
  var reads = TracedFactReads()
  /// Values computed for `set` actions.
  public internal(set) var actionValues: [ConditionValue] = []
  /// The `hold` clauses tried after the decision, in order; the last one with result true held it.
  public internal(set) var holds: [HoldAttempt] = []
}

/// Collects a trace during one evaluation. A value in the evaluation's frame, which every
/// compiled node gets `inout`: a class's stored properties are checked for exclusive access at
/// run time on every change, and a traced decision records dozens of them.
struct TraceRecorder {
  private var trace = PolicyTrace()
  private var seenFacts: FactSlotSet
  private var inAction = false
  private var inHold = false

  /// A recorder for a policy of `rules` rules over `factCount` facts, whose first rules record
  /// about `expected` values. Room is made at once for what a typical decision records; a policy
  /// of thousands grows its lists only as far as it tries.
  init(factCount: Int, rules: Int, expected: Int) {
    seenFacts = FactSlotSet(count: factCount)
    // Sixteen rules' room stays under a kilobyte, a size the allocator keeps a per-thread cache
    // of; room for more would take a block from the shared heap on every traced decision.
    trace.tried.reserveCapacity(min(rules, 16))
    trace.values.reserveCapacity(expected)
  }

  /// Starts the attempt of the rule at `index`.
  @inline(__always)
  mutating func beginRule(_ index: Int) {
    let start = trace.values.count
    trace.tried.append(PolicyTrace.TriedRule(rule: index, result: nil, start: start, end: start))
  }

  @inline(__always)
  mutating func endRule(_ result: Value?) {
    guard !trace.tried.isEmpty else { return }
    trace.tried[trace.tried.count - 1].result = Self.truth(result)
    trace.tried[trace.tried.count - 1].end = trace.values.count
  }

  mutating func beginActions() { inAction = true }

  mutating func beginHold(_ index: Int) {
    inHold = true
    trace.holds.append(PolicyTrace.HoldAttempt(hold: index, result: nil, start: trace.values.count))
  }

  mutating func endHold(_ result: Value?) {
    inHold = false
    trace.holds[trace.holds.count - 1].result = Self.truth(result)
  }

  @inline(__always)
  mutating func record(_ node: Int, _ value: Value?) {
    if !inHold, inAction || trace.tried.isEmpty {
      trace.actionValues.append(PolicyTrace.ConditionValue(node: node, value: value))
    } else {
      trace.values.append(node, value)
    }
  }

  /// Records a value of the rule being tried: what a rule's own parts record, known not to be
  /// in an action or a hold.
  @inline(__always)
  mutating func recordInRule(_ node: Int, _ value: Value?) {
    trace.values.append(node, value)
  }

  @inline(__always)
  mutating func read(_ slot: Int, _ value: Value?) {
    // A slot outside the schema (facts of another length) is listed each time it is read.
    if seenFacts.covers(slot) {
      guard seenFacts.insert(slot) else { return }
    } else if trace.reads.contains(slot) {
      return
    }
    trace.reads.append(slot, missing: value == nil)
  }

  /// The trace, each hold given its values.
  mutating func finish() -> PolicyTrace {
    var end = trace.values.count
    for index in trace.holds.indices.reversed() {
      let start = trace.holds[index].start
      trace.holds[index].conditions = TraceConditionValues(trace.values, start..<end)
      end = start
    }
    // Moved out, not copied: a copy would retain each list here and release it again when the
    // frame holding the recorder goes.
    var finished = PolicyTrace()
    swap(&finished, &trace)
    return finished
  }

  private static func truth(_ result: Value?) -> Bool? {
    if case .boolean(let flag)? = result { flag } else { nil }
  }
}
