import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonSupport

/// Explains a decision in plain sentences: what was decided, which rule decided and why, why each
/// earlier rule did not match, which facts were read or missing, and where each body field came from.
public struct DecisionExplainer: Sendable {
  let policy: CompiledPolicy

  /// Creates an explainer for decisions made by `policy`.
  public init(policy: CompiledPolicy) {
    self.policy = policy
  }

  /// The headline and body, plus with `explain` the reasons, as lines of text.
  public func render(_ decision: Decision, explain: Bool) -> String {
    var lines = [headline(decision)]
    if let json = decision.reply?.json {
      // A skip can still have built a body (one that breaks the store's rules); it is never sent.
      let label = if case .skip = decision.action { "body (not sent): " } else { "body: " }
      lines.append(label + String(decoding: json, as: UTF8.self))
    }
    guard explain else { return TerminalSafeText.shown(lines.joined(separator: "\n")) + "\n" }
    if let explanation = DecisionExplanation(decision, policy: policy) {
      lines.append("")
      lines += Self.whyLines(explanation)
      lines.append("")
      // The body's own facts count too: a reply without consent or a delivery status is
      // skipped for them, though no rule read them.
      let forBody = Self.bodyFacts(decision.store).filter {
        decision.facts.values[$0] == nil && !explanation.missingFacts.contains($0)
      }.map { "\($0) (the body needs it)" }
      let missing = explanation.missingFacts + forBody
      lines.append("Missing facts: " + (missing.isEmpty ? "none" : missing.joined(separator: ", ")))
    }
    lines.append("")
    lines += factLines(decision)
    lines.append("")
    lines += fieldLines(decision)
    return TerminalSafeText.shown(lines.joined(separator: "\n")) + "\n"
  }

  /// The facts every reply's body for `store` is built from, whatever the policy reads.
  static func bodyFacts(_ store: FactSchema.Store) -> [String] {
    switch store {
    case .appStore: ["customer.consented", "delivery.status", "product.sample_offered"]
    case .googlePlay: ["customer.consented", "product.sample_offered"]
    }
  }

  /// One line saying what will happen.
  public func headline(_ decision: Decision) -> String {
    let who = decision.ruleIndex == nil ? "otherwise" : "rule \"\(decision.rule)\""
    switch decision.action {
    case .respond:
      return "respond: send the body to \(policy.schema.vocabulary.store) (decided by \(who))"
    case .hold:
      let held = decision.holdReason.map { ", \($0)" } ?? ""
      return "hold for review: queue the body until a person approves it (decided by \(who)\(held))"
    case .skip(let reason):
      return "\(reason.description(body: decision.body)) (policy decided by \(who))"
    }
  }

  /// The decision's reasons as sentences: the deciding rule's conditions, then each earlier rule
  /// with the first condition that failed it.
  public static func whyLines(_ explanation: DecisionExplanation) -> [String] {
    var lines = ["Why:"]
    let at = explanation.line.map { " (line \($0))" } ?? ""
    if explanation.decidedBy == "otherwise" {
      let what =
        explanation.line == nil ? "the implicit 'otherwise share data only'" : "'otherwise'\(at)"
      lines.append(
        explanation.earlierRules.isEmpty
          ? "  The policy has no rules, so \(what) decided."
          : "  No rule matched, so \(what) decided.")
    } else {
      lines.append("  Rule \"\(explanation.decidedBy)\"\(at) decided, because:")
      lines += explanation.because.map { "    - " + sentence($0) }
      if let followed = explanation.followed {
        lines.append("  Its answer follows \(followed.fact), which is \(followed.value).")
      }
    }
    if !explanation.earlierRules.isEmpty {
      lines.append(
        explanation.decidedBy == "otherwise"
          ? "  Rules tried, none matched:" : "  Rules tried before it did not match:")
    }
    for miss in explanation.earlierRules {
      let reason = miss.failed.map(sentence) ?? "its condition did not hold"
      lines.append("    - \"\(miss.rule)\" (line \(miss.line)): \(reason)")
    }
    if let hold = explanation.hold {
      lines.append("  Hold \"\(hold.name)\" (line \(hold.line)) held it for review, because:")
      lines += hold.because.map { "    - " + sentence($0) }
    }
    return lines
  }

  private static func sentence(_ condition: DecisionExplanation.Condition) -> String {
    // `x is not missing is false` reads as a riddle: say what was found.
    for (test, negated) in [(" is not missing", true), (" is missing", false)]
    where condition.text.hasSuffix(test) {
      let fact = String(condition.text.dropLast(test.count))
      switch (condition.value, negated) {
      case ("false", true), ("true", false): return "\(fact) is missing"
      case ("true", true), ("false", false):
        return "\(fact) is there" + (condition.detail.map { " (\($0))" } ?? "")
      default: break
      }
    }
    return "\(condition.text) is \(condition.value)" + (condition.detail.map { " (\($0))" } ?? "")
  }

  /// Every rule tried with each condition's value, for test failures.
  package func ruleLines(_ decision: Decision) -> [String] {
    guard let trace = decision.trace else { return ["(no trace recorded)"] }
    var lines = ["Rules, in order:"]
    for attempt in trace.attempts {
      let rule = policy.checked.rules[attempt.rule]
      let verdict: String
      switch attempt.result {
      case true?: verdict = "matched"
      case false?: verdict = "did not match"
      case nil:
        let reader = ConditionReader(policy: policy, facts: decision.facts.values)
        let cause =
          reader.missingFacts(in: rule.condition).isEmpty
          ? reader.unknownCause(in: rule.condition) : nil
        verdict = "did not match: " + (cause ?? "a fact it needs is missing")
      }
      lines.append("  \(attempt.rule + 1). \"\(rule.name)\" \(verdict)")
      lines += conditionLines(rule, attempt, decision).map { "       " + $0 }
    }
    if decision.ruleIndex == nil {
      lines.append("  No rule matched, so 'otherwise' decided.")
    }
    return lines
  }

  /// Each part of the rule's `and` chain with its value, as the explanation reads them, up to the
  /// first false one (the rest was not needed).
  private func conditionLines(
    _ rule: CheckedRule, _ attempt: PolicyTrace.RuleAttempt, _ decision: Decision
  ) -> [String] {
    ConditionReader(policy: policy, facts: decision.facts.values).conditions(of: rule, in: attempt)
      .map { condition in
        "- \(condition.text): \(condition.value)" + (condition.detail.map { " (\($0))" } ?? "")
      }
  }

  package static func conjuncts(_ expression: ResolvedExpression) -> [ResolvedExpression] {
    if case .and(let left, let right) = expression.kind {
      return conjuncts(left) + conjuncts(right)
    }
    return [expression]
  }

  private func factLines(_ decision: Decision) -> [String] {
    guard let trace = decision.trace else { return [] }
    var lines = ["Facts read:"]
    // The body's own facts (consent, sample) are read too, after the rules' facts.
    var slots = trace.factsRead
    for case .fact(let name) in decision.sourceList.entries.map(\.source).sorted(by: {
      "\($0)" < "\($1)"
    }) {
      if let slot = policy.schema.slot(ofFact: name), !slots.contains(slot) { slots.append(slot) }
    }
    for slot in slots {
      let fact = policy.schema.facts[slot]
      // A payload's text on one line: a line break in it would forge a line of the explanation.
      let value =
        decision.facts.values[slot].map {
          TerminalSafeText.shown($0.glossed(as: fact.type), oneLine: true)
        } ?? "missing"
      let source = decision.facts.provenance[fact.name].map { " (from \($0))" } ?? ""
      lines.append("  \(fact.name) = \(value)\(source)")
    }
    if slots.isEmpty { lines.append("  none") }
    for refusal in decision.facts.refused { lines.append("  refused: \(refusal)") }
    for failure in decision.facts.failures { lines.append("  unavailable: \(failure)") }
    return lines
  }

  private func fieldLines(_ decision: Decision) -> [String] {
    // Nothing is sent: where each field would have come from is beside the point.
    guard !decision.sourceList.isEmpty, decision.reply != nil else { return [] }
    var lines = ["Body fields:"]
    let order = [
      "customerConsented", "deliveryStatus", "sampleContentProvided", "consumptionPercentage",
      "refundPreference",
    ]
    for field in order + ["consumptionUsageEvents"] {
      guard let source = decision.sourceList[field] else { continue }
      if field == "consumptionUsageEvents" {
        lines.append("  \(field): \(source)")
        continue
      }
      let value = decision.reply?.value(of: field) ?? "-"
      let sourceText = source.description
      if value == "(left out)" || value == "-" {
        lines.append(
          "  \(field): "
            + (sourceText.hasPrefix("left out") ? sourceText : "left out, \(sourceText)"))
      } else {
        lines.append("  \(field) = \(value), \(sourceText)")
      }
    }
    return lines
  }

}
