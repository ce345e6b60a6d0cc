import ReckonPolicy
import ReckonState
import ReckonSupport

/// Why a decision came out as it did, in the terms a product owner uses: the deciding rule and the
/// conditions that held, each earlier rule with the first condition that failed it, and the facts
/// that were missing. `DecisionExplainer` renders it as sentences; `DecisionReport` as JSON, which
/// the state database keeps and `DecisionRecord.explanation` reads back.
public struct DecisionExplanation: Sendable, Codable {
  /// One condition with its value and, for a comparison, the value of what it compared.
  public struct Condition: Sendable, Codable {
    /// The condition as written.
    public let text: String
    /// The line it is written on.
    public let line: Int
    /// `true`, `false` or `unknown`.
    public let value: String
    /// What the condition read, e.g. `used is 100%`, or which facts were missing.
    public let detail: String?
  }

  /// A rule that was tried and did not match.
  public struct Miss: Sendable, Codable {
    /// The rule's name.
    public let rule: String
    /// The line the rule starts on.
    public let line: Int
    /// The part of its condition that made it false, or when its result was unknown (a fact it
    /// needed was missing and nothing else was false), the first unknown part.
    public let failed: Condition?
  }

  /// The `hold` clause that held the decision for review.
  public struct Hold: Sendable, Codable {
    /// The clause's name.
    public let name: String
    /// The line the clause starts on.
    public let line: Int
    /// The parts of its condition, each true.
    public let because: [Condition]
  }

  /// The fact a `follow FACT` action answered by, and its value (`missing` when it had none).
  public struct Followed: Sendable, Codable {
    /// The fact's name.
    public let fact: String
    /// Its value as the explanation shows values.
    public let value: String
  }

  /// The deciding rule's name, or `otherwise`.
  public let decidedBy: String
  /// The line of the deciding rule or `otherwise`, if written.
  public let line: Int?
  /// The parts of the deciding rule's condition, each true.
  public let because: [Condition]
  /// The rules tried before it, in order.
  public let earlierRules: [Miss]
  /// The facts that were read but missing, in the order they were read.
  public let missingFacts: [String]
  /// For a rule that answers by `follow FACT`, the fact and the value followed; nil for another.
  public var followed: Followed? = nil
  /// The `hold` clause that held the decision; nil when none did.
  public var hold: Hold? = nil

  /// Explains `decision`, made by `policy` with a trace; nil without a trace.
  public init?(_ decision: Decision, policy: CompiledPolicy) {
    guard let trace = decision.trace else { return nil }
    let checked = policy.checked
    let reader = ConditionReader(policy: policy, facts: decision.facts.values)
    decidedBy = decision.rule
    if let index = decision.ruleIndex {
      line = checked.source.location(of: checked.rules[index].span.start).line
      let attempt = trace.attempts.last { $0.rule == index }
      because = attempt.map { reader.conditions(of: checked.rules[index], in: $0) } ?? []
    } else {
      line = checked.otherwiseSpan.map { checked.source.location(of: $0.start).line }
      because = []
    }
    earlierRules = trace.attempts.filter { $0.rule != decision.ruleIndex }.map { attempt in
      let rule = checked.rules[attempt.rule]
      let conditions = reader.conditions(of: rule, in: attempt)
      // Three-valued logic: unknown and false is false, and the false part is the reason.
      // "Unknown" is the reason only when the rule's result was unknown.
      let failed =
        attempt.result == false
        ? conditions.first { $0.value == "false" } : conditions.first { $0.value == "unknown" }
      return Miss(
        rule: rule.name, line: checked.source.location(of: rule.span.start).line, failed: failed)
    }
    missingFacts = trace.missingFacts.map { policy.schema.facts[$0].name }
    if let index = decision.ruleIndex,
      let slot = checked.rules[index].actions.lazy.compactMap(Self.followedSlot).first
    {
      let fact = policy.schema.facts[slot]
      let value = decision.facts.values[slot].map { $0.glossed(as: fact.type) } ?? "missing"
      followed = Followed(fact: fact.name, value: TerminalSafeText.shown(value, oneLine: true))
    }
    if let attempt = trace.holds.last(where: { $0.result == true }) {
      let clause = checked.holds[attempt.hold]
      hold = Hold(
        name: clause.name, line: checked.source.location(of: clause.nameSpan.start).line,
        because: reader.conditions(of: clause.condition, in: attempt.conditions))
    }
  }

  /// The fact a `follow` action answers by.
  private static func followedSlot(_ action: CheckedAction) -> Int? {
    if case .follow(let slot, _) = action { slot } else { nil }
  }
}

/// Reads the values of a rule's conditions from a trace attempt.
package struct ConditionReader {
  package let policy: CompiledPolicy
  /// The request's facts: a fact's value is read here, since the trace records only conditions.
  package let facts: FactValues

  /// A reader of `policy`'s conditions over `facts`.
  package init(policy: CompiledPolicy, facts: FactValues) {
    self.policy = policy
    self.facts = facts
  }

  /// The parts of the rule's `and` chain that were evaluated, in order, stopping after the first
  /// false one; an unknown part does not stop evaluation, since a later false part decides.
  package func conditions(of rule: CheckedRule, in attempt: PolicyTrace.RuleAttempt)
    -> [DecisionExplanation
    .Condition]
  {
    conditions(of: rule.condition, in: attempt.conditions)
  }

  /// The same for any condition (a rule's or a hold's) and the values recorded trying it.
  package func conditions(of condition: ResolvedExpression, in recorded: TraceConditionValues)
    -> [DecisionExplanation.Condition]
  {
    var values: [Int: Value?] = [:]
    for entry in recorded { values[entry.node] = entry.value }
    var result: [DecisionExplanation.Condition] = []
    for part in DecisionExplainer.conjuncts(condition) {
      let source = policy.checked.source
      let text = source.text(of: part.span)
      let line = source.location(of: part.span.start).line
      guard let recorded = values[part.id] else {
        if let constant = part.constantValue {
          result.append(
            .init(text: text, line: line, value: constant.formatted(as: .boolean), detail: nil))
        }
        continue
      }
      let value = recorded.map { $0.formatted(as: part.type) } ?? "unknown"
      let detail = recorded == nil ? missingDetail(part, values) : readDetail(part, values)
      result.append(.init(text: text, line: line, value: value, detail: detail))
      if recorded == .boolean(false) { break }
    }
    return result
  }

  /// `used is 100%` for a comparison or membership whose subject is a fact or a `let`.
  private func readDetail(_ part: ResolvedExpression, _ values: [Int: Value?]) -> String? {
    let subject: ResolvedExpression
    switch part.kind {
    case .compare(_, let left, _), .membership(_, let left, _): subject = left
    case .letReference(let index): return letDetail(index)
    default: return nil
    }
    let read: Value?? =
      if case .fact(let slot) = subject.kind {
        .some(facts[slot])
      } else {
        values[subject.id] ?? .some(policy.value(of: subject, facts: facts))
      }
    guard case .some(.some(let value)) = read, subject.constantValue == nil else {
      return nil
    }
    switch subject.kind {
    case .fact, .letReference, .arithmetic, .call:
      // A worked-out side (`now - usage.last_used`) is shown too: its value is the reason.
      let shown = TerminalSafeText.shown(value.glossed(as: subject.type), oneLine: true)
      return "\(policy.checked.source.text(of: subject.span)) is \(shown)"
        + (converted(value, comparedIn: part).map { " (\($0) at the configured rates)" } ?? "")
    default:
      return nil
    }
  }

  /// An amount in the currency of the amount it is compared with, when the rates convert it:
  /// `54.00 USD` for 45 EUR compared with 50 USD.
  private func converted(_ value: Value, comparedIn part: ResolvedExpression) -> String? {
    guard case .compare(_, _, let other) = part.kind, case .money(let milli, let currency) = value,
      case .money(_, let target)? = other.constantValue, target != currency,
      let amount = policy.schema.currencyRates.convert(milli, from: currency, to: target)
    else { return nil }
    return Value.money(amount, currency: target).formatted(as: .money)
  }

  /// `heavy = used >= 80%; usage.consumed is 100%` for a condition that is a `let`: what it
  /// stands for and the values of the facts it reads, which `heavy is true` alone hides.
  private func letDetail(_ index: Int) -> String {
    let declared = policy.checked.lets[index]
    let source = policy.checked.source
    var read: [String] = []
    var visited: Set<Int> = []
    func walk(_ node: ResolvedExpression) {
      switch node.kind {
      case .fact(let slot):
        let fact = policy.schema.facts[slot]
        let value = facts[slot].map { $0.glossed(as: fact.type) } ?? "missing"
        // A payload's text on one line: a line break in it would forge a line of the explanation.
        let entry = "\(fact.name) is \(TerminalSafeText.shown(value, oneLine: true))"
        if !read.contains(entry) { read.append(entry) }
      case .letReference(let inner):
        if visited.insert(inner).inserted { walk(policy.checked.lets[inner].value) }
      default: node.children.forEach(walk)
      }
    }
    walk(declared.value)
    // A let written over several lines reads as one, without its comments: joined, a comment
    // would seem to swallow the lines after it.
    let definition = source.text(of: declared.value.span).split(whereSeparator: \.isNewline)
      .map { Self.withoutComment($0).trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: " ")
    return "\(declared.name) = \(definition)"
      + (read.isEmpty ? "" : "; " + read.joined(separator: ", "))
  }

  /// `line` up to a `#` that is not inside a string.
  private static func withoutComment(_ line: Substring) -> Substring {
    var inString = false
    var escaped = false
    for index in line.indices {
      let character = line[index]
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = inString
      } else if character == "\"" {
        inString.toggle()
      } else if character == "#", !inString {
        return line[..<index]
      }
    }
    return line
  }

  private func missingDetail(_ part: ResolvedExpression, _ values: [Int: Value?]) -> String {
    whyUnknown(part) ?? "a fact it needs is missing"
  }

  /// Why `expression` has no value, in words: the missing facts it reads, else money in two
  /// currencies or a division by zero; nil when none of these is the reason.
  package func whyUnknown(_ expression: ResolvedExpression) -> String? {
    let names = missingFacts(in: expression)
    guard names.isEmpty else { return names.joined(separator: ", ") + " missing" }
    return unknownCause(in: expression)
  }

  /// The facts `expression` reads, directly or through lets, that the request does not have.
  func missingFacts(in expression: ResolvedExpression) -> [String] {
    var names: [String] = []
    // Each let once: `let b = a and a` would otherwise be walked twice per level, 2^N for N lets.
    var visitedLets: Set<Int> = []
    func walk(_ node: ResolvedExpression) {
      if case .fact(let slot) = node.kind, facts[slot] == nil {
        let name = policy.schema.facts[slot].name
        if !names.contains(name) { names.append(name) }
      }
      if case .letReference(let index) = node.kind, visitedLets.insert(index).inserted {
        walk(policy.checked.lets[index].value)
      }
      node.children.forEach(walk)
    }
    walk(expression)
    return names
  }

  /// Why `expression` is unknown when no fact it reads is missing, through lets: two amounts of
  /// money in different currencies, which the language neither compares nor adds, or a division
  /// by zero, which has no value. Nil when it is neither.
  func unknownCause(in expression: ResolvedExpression) -> String? {
    var visitedLets: Set<Int> = []
    func find(_ node: ResolvedExpression) -> String? {
      if case .letReference(let index) = node.kind {
        return visitedLets.insert(index).inserted ? find(policy.checked.lets[index].value) : nil
      }
      if let found = currencyMismatch(at: node) ?? divisionByZero(at: node) { return found }
      for child in node.children {
        if let found = find(child) { return found }
      }
      return nil
    }
    return find(expression)
  }

  /// `25.00 USD cannot be compared with 20 EUR: different currencies` when `node` itself
  /// compares or combines amounts in two currencies.
  private func currencyMismatch(at node: ResolvedExpression) -> String? {
    let verb: String
    switch node.kind {
    case .compare, .membership: verb = "cannot be compared with"
    case .arithmetic, .call: verb = "cannot be combined with"
    default: return nil
    }
    let amounts = node.children.filter { $0.type == .money }.compactMap { child in
      policy.value(of: child, facts: facts).map { (child, $0) }
    }
    for (index, (firstNode, first)) in amounts.enumerated() {
      guard case .money(_, let currency) = first else { continue }
      for (otherNode, other) in amounts[(index + 1)...] {
        guard case .money(_, let otherCurrency) = other, otherCurrency != currency else {
          continue
        }
        return "\(written(firstNode, first)) \(verb) \(written(otherNode, other)): "
          + "different currencies"
      }
    }
    return nil
  }

  /// `'a / b' on line 1 divides by zero: b is 0.00 USD` when `node` divides by a value that is
  /// zero; the line is where the division is written, which for a let is not the rule's.
  private func divisionByZero(at node: ResolvedExpression) -> String? {
    guard case .arithmetic(.divide, let dividend, let divisor) = node.kind,
      policy.value(of: dividend, facts: facts) != nil,
      let value = policy.value(of: divisor, facts: facts), Self.isZero(value)
    else { return nil }
    let source = policy.checked.source
    let divisorText = source.text(of: divisor.span)
    let what: String
    switch divisor.kind {
    case .fact, .letReference: what = "\(divisorText) is \(value.formatted(as: divisor.type))"
    case .constant: what = "the divisor is \(divisorText)"
    default: what = "'\(divisorText)' is \(value.formatted(as: divisor.type))"
    }
    let line = source.location(of: node.span.start).line
    return "'\(source.text(of: node.span))' on line \(line) divides by zero: \(what)"
  }

  private static func isZero(_ value: Value) -> Bool {
    switch value {
    case .number(let n), .percent(let n), .duration(let n): n == 0
    case .money(let milli, _): milli == 0
    default: false
    }
  }

  /// A constant as the policy writes it (`20 EUR`), anything else as its value (`25.00 USD`).
  private func written(_ node: ResolvedExpression, _ value: Value) -> String {
    node.constantValue != nil
      ? policy.checked.source.text(of: node.span) : value.formatted(as: node.type)
  }
}
