/// Which rules can match, by the value of one fact: for a policy whose rules test the same fact
/// for equality (`product.id == "…"`, a catalogue of SKUs), the rules a request's value leaves
/// in play, in their order, so deciding skips the rest without trying them. First match is
/// unchanged: a skipped rule has an `and` part that is false, or unknown, for the value.
struct RuleIndex: Sendable {
  /// The fact indexed on.
  let slot: Int
  /// For each value some rule tests for, the rules that can match it, in policy order.
  let byValue: [Value: ContiguousArray<Int>]
  /// The rules that can match any other value, or a request without the fact: those that do not
  /// test it.
  let rest: ContiguousArray<Int>

  /// Fewer rules testing one fact than this are tried in turn: the lookup would cost more than
  /// it saves.
  static let minimumIndexedRules = 16

  /// The index for `policy`, or nil when no fact is tested for equality by enough of its rules.
  init?(_ policy: CheckedPolicy) {
    // Each rule's equality tests, by fact: the values it needs one of.
    let constraints = policy.rules.map { rule in
      RuleIndex.equalities(in: rule.condition, lets: policy.lets)
    }
    var rulesBySlot: [Int: Int] = [:]
    for found in constraints {
      for slot in found.keys { rulesBySlot[slot, default: 0] += 1 }
    }
    guard
      let (slot, count) = rulesBySlot.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }),
      count >= Self.minimumIndexedRules
    else { return nil }
    self.slot = slot
    var rest: ContiguousArray<Int> = []
    // Each value's rules that test for it, in order; merged with `rest` below, so building
    // takes one pass over the rules, not one per value.
    var testing: [Value: [Int]] = [:]
    for (index, found) in constraints.enumerated() {
      guard let wanted = found[slot] else {
        rest.append(index)
        continue
      }
      for value in wanted { testing[value, default: []].append(index) }
    }
    var byValue: [Value: ContiguousArray<Int>] = [:]
    byValue.reserveCapacity(testing.count)
    for (value, rules) in testing {
      var merged = ContiguousArray<Int>()
      merged.reserveCapacity(rules.count + rest.count)
      var (next, other) = (0, 0)
      while next < rules.count || other < rest.count {
        if other == rest.count || (next < rules.count && rules[next] < rest[other]) {
          merged.append(rules[next])
          next += 1
        } else {
          merged.append(rest[other])
          other += 1
        }
      }
      byValue[value] = merged
    }
    self.byValue = byValue
    self.rest = rest
  }

  /// The rules that can match a request whose fact has `value` (nil: missing).
  func candidates(for value: Value?) -> ContiguousArray<Int> {
    value.flatMap { byValue[$0] } ?? rest
  }

  /// The values each fact must have for `condition` to be true: from its `and` parts (through
  /// the lets it names) that compare a fact with a constant text or enumeration value by `==`
  /// or `in`. A fact tested twice keeps the values both allow.
  static func equalities(in condition: ResolvedExpression, lets: [CheckedLet]) -> [Int: Set<Value>]
  {
    var found: [Int: Set<Value>] = [:]
    var visited: Set<Int> = []
    func add(_ slot: Int, _ values: Set<Value>) {
      found[slot] = found[slot].map { $0.intersection(values) } ?? values
    }
    func walk(_ node: ResolvedExpression) {
      switch node.kind {
      case .and(let left, let right):
        walk(left)
        walk(right)
      case .letReference(let index):
        if visited.insert(index).inserted, lets[index].value.type == .boolean {
          walk(lets[index].value)
        }
      case .compare(.equal, let left, let right):
        if case .fact(let slot) = left.kind, let value = indexable(right.constantValue) {
          add(slot, [value])
        } else if case .fact(let slot) = right.kind, let value = indexable(left.constantValue) {
          add(slot, [value])
        }
      case .membership(negated: false, let subject, let members):
        guard case .fact(let slot) = subject.kind else { return }
        let values = members.compactMap { indexable($0.constantValue) }
        if values.count == members.count { add(slot, Set(values)) }
      default:
        return
      }
    }
    walk(condition)
    return found
  }

  /// A value equality on which is exact (text, an enumeration's case); numbers compare as
  /// decimals and money across currencies, so they are not indexed.
  private static func indexable(_ value: Value?) -> Value? {
    switch value {
    case .text?, .enumeration?: value
    default: nil
    }
  }
}
