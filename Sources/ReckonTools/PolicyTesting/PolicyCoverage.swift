import ReckonEngine
import ReckonPolicy

/// Rule coverage of a policy by a set of decisions: how often each rule was tried and decided, and
/// whether each top-level condition of each rule was seen both true and false.
public struct PolicyCoverage: Sendable, Encodable {
  /// The coverage of one rule.
  public struct Rule: Sendable, Encodable {
    /// The rule's name.
    public let name: String
    /// The line the rule starts on.
    public let line: Int
    /// How many decisions tried the rule.
    public var tried = 0
    /// How many decisions the rule made.
    public var decided = 0
    /// Its top-level conditions (the parts of its `and` chain).
    public var conditions: [Condition]

    /// Whether some decision was made by this rule.
    public var decidedAny: Bool { decided > 0 }
  }

  /// The values one condition was seen to have.
  public struct Condition: Sendable, Encodable {
    /// The condition as written.
    public let text: String
    /// Where it is written.
    public let line: Int
    /// Whether some decision saw it true.
    public var seenTrue = false
    /// Whether some decision saw it false.
    public var seenFalse = false
    /// Whether some decision found it unknown (a fact was missing).
    public var seenUnknown = false
    let node: Int

    /// Whether it was seen both true and false.
    public var covered: Bool { seenTrue && seenFalse }
  }

  /// Every rule in order.
  public private(set) var rules: [Rule]
  /// How many decisions `otherwise` made.
  public private(set) var otherwiseDecided = 0

  /// Empty coverage of `policy`'s rules.
  public init(policy: CompiledPolicy) {
    let source = policy.checked.source
    rules = policy.checked.rules.map { rule in
      let conditions = DecisionExplainer.conjuncts(rule.condition).filter {
        $0.constantValue == nil
      }.map { part in
        Condition(
          text: source.text(of: part.span), line: source.location(of: part.span.start).line,
          node: part.id)
      }
      return Rule(
        name: rule.name, line: source.location(of: rule.span.start).line, conditions: conditions)
    }
  }

  /// Adds one traced decision.
  public mutating func record(_ decision: Decision) {
    if let index = decision.ruleIndex { rules[index].decided += 1 } else { otherwiseDecided += 1 }
    guard let trace = decision.trace else { return }
    for attempt in trace.attempts {
      rules[attempt.rule].tried += 1
      var values: [Int: Value?] = [:]
      for entry in attempt.conditions { values[entry.node] = entry.value }
      for position in rules[attempt.rule].conditions.indices {
        guard let value = values[rules[attempt.rule].conditions[position].node] else { continue }
        switch value {
        case .boolean(true)?: rules[attempt.rule].conditions[position].seenTrue = true
        case .boolean(false)?: rules[attempt.rule].conditions[position].seenFalse = true
        default: rules[attempt.rule].conditions[position].seenUnknown = true
        }
      }
    }
  }

  /// Adds the coverage of the same policy checked in another store's words (its rules and
  /// conditions are the same, in the same order), as a policy serving both stores is tested.
  public mutating func merge(_ other: PolicyCoverage) {
    guard other.rules.count == rules.count else { return }
    otherwiseDecided += other.otherwiseDecided
    for index in rules.indices
    where other.rules[index].conditions.count
      == rules[index].conditions.count
    {
      rules[index].tried += other.rules[index].tried
      rules[index].decided += other.rules[index].decided
      for (position, seen) in other.rules[index].conditions.enumerated() {
        rules[index].conditions[position].seenTrue =
          rules[index].conditions[position].seenTrue || seen.seenTrue
        rules[index].conditions[position].seenFalse =
          rules[index].conditions[position].seenFalse || seen.seenFalse
        rules[index].conditions[position].seenUnknown =
          rules[index].conditions[position].seenUnknown || seen.seenUnknown
      }
    }
  }

  /// The names of rules no decision was made by.
  public var undecidedRules: [String] { rules.filter { !$0.decidedAny }.map(\.name) }

  /// Conditions not seen both true and false, as `rule: condition`.
  public var uncoveredConditions: [String] {
    rules.flatMap { rule in
      rule.conditions.filter { !$0.covered }.map { "\(rule.name): \($0.text)" }
    }
  }

  /// Lines for a terminal: each rule decided, tried only, or not reached, and conditions not seen
  /// both ways.
  public func lines() -> [String] {
    // Labels are `rule "NAME"` and `otherwise`, padded to the longest so the counts line up, in
    // terminal cells: a Japanese or emoji name takes two per character.
    let width = max("otherwise".count, (rules.map { $0.name.terminalWidth }.max() ?? 0) + 7)
    let padded = { (label: String) in label.padded(toCells: width) }
    var lines: [String] = []
    for rule in rules {
      let label = padded("rule \"\(rule.name)\"")
      // A rule every test got to but none matched was reached: only one no test got to was not.
      let status =
        rule.decidedAny
        ? "decided \(rule.decided) test\(rule.decided == 1 ? "" : "s")"
        : rule.tried > 0 ? "never decided" : "never reached"
      lines.append("\(label)  \(status)")
      for condition in rule.conditions where !condition.covered {
        lines.append("  - \(condition.text): \(Self.seen(condition))")
      }
    }
    // `otherwise` is reached only by a test no rule decides, so one that decided none was not.
    lines.append(
      padded("otherwise") + "  "
        + (otherwiseDecided == 0
          ? "never reached" : "decided \(otherwiseDecided) test\(otherwiseDecided == 1 ? "" : "s")")
    )
    return lines
  }

  private static func seen(_ condition: Condition) -> String {
    switch (condition.seenTrue, condition.seenFalse) {
    case (true, _): "seen true, never false"
    case (false, true): "seen false, never true"
    case (false, false): condition.seenUnknown ? "only seen unknown" : "never evaluated"
    }
  }

  enum CodingKeys: String, CodingKey {
    case rules, otherwiseDecided
  }
}

extension PolicyCoverage.Rule {
  enum CodingKeys: String, CodingKey {
    case name, line, tried, decided, conditions
  }
}

extension PolicyCoverage.Condition {
  enum CodingKeys: String, CodingKey {
    case text, line, seenTrue, seenFalse, seenUnknown
  }
}
