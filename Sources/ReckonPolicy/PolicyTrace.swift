/// What an evaluation looked at: each rule tried with its result, each condition's value, each
/// fact read. Recorded only when asked for, so deciding without it stays fast.
public struct PolicyTrace: Hashable, Sendable {
  /// One rule that was tried.
  public struct RuleAttempt: Hashable, Sendable {
    /// The rule's index in the policy.
    public let rule: Int
    /// true, false, or nil for unknown (a fact it needed was missing).
    public var result: Bool?
    /// The value of each condition evaluated while trying it, in evaluation order.
    public var conditions: [ConditionValue]
  }

  /// One `hold` clause whose condition was evaluated.
  public struct HoldAttempt: Hashable, Sendable {
    /// The clause's index in the policy.
    public let hold: Int
    /// true, false, or nil for unknown.
    public var result: Bool?
    /// The value of each condition evaluated while trying it, in evaluation order.
    public var conditions: [ConditionValue]
  }

  /// The value one node had.
  public struct ConditionValue: Hashable, Sendable {
    /// The node's id; `CheckedPolicy.nodeSpans[node]` is where it was written.
    public let node: Int
    /// Its value, or nil for unknown.
    public let value: Value?
  }

  /// The rules tried, in order; the last one with result true decided.
  public internal(set) var attempts: [RuleAttempt] = []
  /// The slots of the facts read, in first-read order.
  public internal(set) var factsRead: [Int] = []
  /// The slots of facts that were read but missing.
  public internal(set) var missingFacts: [Int] = []
  /// Values computed for `set` actions.
  public internal(set) var actionValues: [ConditionValue] = []
  /// The `hold` clauses tried after the decision, in order; the last one with result true held it.
  public internal(set) var holds: [HoldAttempt] = []
}

/// Collects a trace during one evaluation. A value in the evaluation's frame, which every
/// compiled node gets `inout`: a class's stored properties are checked for exclusive access at
/// run time on every change, and a traced decision records dozens of them.
struct TraceRecorder {
  var trace = PolicyTrace()
  /// Whether each fact's slot has been read yet, by slot: a fact is listed once, on first read.
  private var seenFacts: [Bool]
  private var inAction = false
  private var inHold = false

  /// A recorder for a policy of `rules` rules over `factCount` facts. Room for the first rules'
  /// attempts is made at once; a policy of thousands grows its list only as far as it tries.
  init(factCount: Int, rules: Int) {
    seenFacts = Array(repeating: false, count: factCount)
    trace.attempts.reserveCapacity(min(rules, 32))
  }

  /// Starts the attempt of the rule at `index`, which records at most `recording` values.
  mutating func beginRule(_ index: Int, recording: Int) {
    var conditions: [PolicyTrace.ConditionValue] = []
    conditions.reserveCapacity(recording)
    trace.attempts.append(
      PolicyTrace.RuleAttempt(rule: index, result: nil, conditions: conditions))
  }

  mutating func endRule(_ result: Value?) {
    guard !trace.attempts.isEmpty else { return }
    trace.attempts[trace.attempts.count - 1].result = result.flatMap {
      if case .boolean(let b) = $0 { b } else { nil }
    }
  }

  mutating func beginActions() { inAction = true }

  mutating func beginHold(_ index: Int) {
    inHold = true
    trace.holds.append(PolicyTrace.HoldAttempt(hold: index, result: nil, conditions: []))
  }

  mutating func endHold(_ result: Value?) {
    inHold = false
    trace.holds[trace.holds.count - 1].result = result.flatMap {
      if case .boolean(let b) = $0 { b } else { nil }
    }
  }

  mutating func record(_ node: Int, _ value: Value?) {
    let entry = PolicyTrace.ConditionValue(node: node, value: value)
    if inHold {
      trace.holds[trace.holds.count - 1].conditions.append(entry)
    } else if inAction || trace.attempts.isEmpty {
      trace.actionValues.append(entry)
    } else {
      trace.attempts[trace.attempts.count - 1].conditions.append(entry)
    }
  }

  mutating func read(_ slot: Int, _ value: Value?) {
    // A slot outside the schema (facts of another length) is listed each time it is read.
    if seenFacts.indices.contains(slot) {
      guard !seenFacts[slot] else { return }
      seenFacts[slot] = true
    } else if trace.factsRead.contains(slot) {
      return
    }
    trace.factsRead.append(slot)
    if value == nil { trace.missingFacts.append(slot) }
  }
}
