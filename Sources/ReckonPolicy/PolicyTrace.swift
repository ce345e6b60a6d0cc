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

/// Collects a trace during one evaluation.
final class TraceRecorder {
  var trace = PolicyTrace()
  private var seenFacts: Set<Int> = []
  private var inAction = false
  private var inHold = false

  func beginRule(_ index: Int) {
    trace.attempts.append(PolicyTrace.RuleAttempt(rule: index, result: nil, conditions: []))
  }

  func endRule(_ result: Value?) {
    guard !trace.attempts.isEmpty else { return }
    trace.attempts[trace.attempts.count - 1].result = result.flatMap {
      if case .boolean(let b) = $0 { b } else { nil }
    }
  }

  func beginActions() { inAction = true }

  func beginHold(_ index: Int) {
    inHold = true
    trace.holds.append(PolicyTrace.HoldAttempt(hold: index, result: nil, conditions: []))
  }

  func endHold(_ result: Value?) {
    inHold = false
    trace.holds[trace.holds.count - 1].result = result.flatMap {
      if case .boolean(let b) = $0 { b } else { nil }
    }
  }

  func record(_ node: Int, _ value: Value?) {
    let entry = PolicyTrace.ConditionValue(node: node, value: value)
    if inHold {
      trace.holds[trace.holds.count - 1].conditions.append(entry)
    } else if inAction || trace.attempts.isEmpty {
      trace.actionValues.append(entry)
    } else {
      trace.attempts[trace.attempts.count - 1].conditions.append(entry)
    }
  }

  func read(_ slot: Int, _ value: Value?) {
    guard seenFacts.insert(slot).inserted else { return }
    trace.factsRead.append(slot)
    if value == nil { trace.missingFacts.append(slot) }
  }
}
