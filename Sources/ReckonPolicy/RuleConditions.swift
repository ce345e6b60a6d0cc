/// Every rule's condition as the evaluator tries it: the parts of its `and` chain (its left
/// spine, as written `a and b and c`), each either a fact test done in place or a compiled
/// expression. A rule is tried without a closure call for the tests, the commonest parts.
struct RuleConditions: Sendable {
  /// One part of a rule's `and` chain, by its place in `tests` or `expressions`. Plain numbers,
  /// so reading one costs no reference counting.
  enum Part: Sendable {
    /// A fact test: `node` names it in a trace; `subject` is the node recorded with the fact's
    /// value before it (see `FactTest.subjectNode`), else -1.
    case test(Int, node: Int, subject: Int)
    case expression(Int)
  }

  /// Every rule's parts, one rule after another.
  private let parts: ContiguousArray<Part>
  private let tests: ContiguousArray<FactTest>
  /// Kept in an array of their own: a closure called out of an enum's payload is retained and
  /// released around the call, one called out of an array of closures is not.
  private let expressions: ContiguousArray<CompiledExpression>
  /// Where each rule's parts start in `parts`, and, one past the last rule, where they end.
  private let starts: ContiguousArray<Int>
  /// For each part, the node of the `and` joining it to the parts before it; -1 for a rule's
  /// first part.
  private let joins: ContiguousArray<Int>

  /// The conditions of `rules`, each part compiled by `compile`.
  init(
    _ rules: [CheckedRule], lets: [CheckedLet],
    compile: (ResolvedExpression) -> CompiledExpression
  ) {
    var parts: ContiguousArray<Part> = []
    var starts: ContiguousArray<Int> = []
    var joins: ContiguousArray<Int> = []
    var tests: ContiguousArray<FactTest> = []
    var expressions: ContiguousArray<CompiledExpression> = []
    for rule in rules {
      starts.append(parts.count)
      var spine: [(join: Int, part: ResolvedExpression)] = []
      var node = rule.condition
      while case .and(let left, let right) = node.kind {
        spine.append((node.id, right))
        node = left
      }
      spine.append((-1, node))
      // The spine was walked from the outermost `and` in; parts run from the innermost out.
      for (join, part) in spine.reversed() {
        if let test = FactTest(part, lets: lets) {
          let subject = FactTest.subjectNode(of: part) ?? -1
          parts.append(.test(tests.count, node: part.id, subject: subject))
          tests.append(test)
        } else {
          parts.append(.expression(expressions.count))
          expressions.append(compile(part))
        }
        joins.append(join)
      }
    }
    starts.append(parts.count)
    self.parts = parts
    self.starts = starts
    self.joins = joins
    self.tests = tests
    self.expressions = expressions
  }

  /// The number of rules.
  var count: Int { starts.count - 1 }

  /// Whether the rule at `index` matches: every part true. It stops at the first part that is
  /// not, which cannot change whether the rule matches.
  func matches(_ index: Int, _ frame: inout EvaluationFrame) -> Bool {
    for position in starts[index]..<starts[index + 1] {
      switch parts[position] {
      case .test(let test, _, _):
        guard tests[test].holds(frame.facts[tests[test].slot]) else { return false }
      case .expression(let body):
        guard case .boolean(true)? = expressions[body](&frame) else { return false }
      }
    }
    return true
  }

  /// The value of the rule at `index`'s condition, recording what the traced nodes record, in
  /// the same order: each part's value, and after it each `and`'s, Kleene logic, left to right.
  func tracedValue(_ index: Int, _ frame: inout EvaluationFrame) -> Value? {
    let first = starts[index]
    var value = partValue(first, &frame)
    for position in (first + 1)..<starts[index + 1] {
      // A false left side decides the `and` without its right side.
      if case .boolean(false)? = value {
        frame.recorder?.recordInRule(joins[position], value)
        continue
      }
      let right = partValue(position, &frame)
      if case .boolean(false)? = right {
        value = right
      } else if value == nil || right == nil {
        value = nil
      }
      frame.recorder?.recordInRule(joins[position], value)
    }
    return value
  }

  private func partValue(_ position: Int, _ frame: inout EvaluationFrame) -> Value? {
    switch parts[position] {
    case .test(let test, let node, let subject):
      let slot = tests[test].slot
      let fact = frame.facts[slot]
      frame.recorder?.read(slot, fact)
      if subject >= 0 { frame.recorder?.recordInRule(subject, fact) }
      let value = tests[test].tracedValue(fact)
      frame.recorder?.recordInRule(node, value)
      return value
    case .expression(let body):
      return expressions[body](&frame)
    }
  }
}
