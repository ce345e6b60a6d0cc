import Foundation
import ReckonAppStore
import ReckonPolicy

/// A decision as JSON for tools: action, reason, body, deciding rule, field sources, facts and trace.
public struct DecisionReport: Encodable, Sendable {
  struct Fact: Encodable {
    let name: String
    let value: String?
    let source: String?
  }

  /// A rule tried: its `result` is written `null` when unknown, as docs/language.md says.
  struct Attempt: Encodable {
    let rule: String
    let result: Bool?
    let conditions: [Condition]

    enum CodingKeys: String, CodingKey { case rule, result, conditions }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rule, forKey: .rule)
      try container.encode(result, forKey: .result)
      try container.encode(conditions, forKey: .conditions)
    }
  }

  /// A condition of a rule tried: its `value` is written `null` when unknown.
  struct Condition: Encodable {
    let text: String
    let line: Int
    let column: Int
    let value: String?

    enum CodingKeys: String, CodingKey { case text, line, column, value }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(text, forKey: .text)
      try container.encode(line, forKey: .line)
      try container.encode(column, forKey: .column)
      try container.encode(value, forKey: .value)
    }
  }

  /// The deciding rule's name, written `null` when `otherwise` decided: a rule may not be
  /// called "otherwise", but a reader should not have to know that.
  struct DecidingRule: Encodable {
    let name: String?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      if let name { try container.encode(name) } else { try container.encodeNil() }
    }
  }

  let action: String
  let reason: String?
  let violations: [String]?
  let rule: DecidingRule
  /// Whether `otherwise` decided (`rule` is then null).
  let otherwise: Bool
  let policy: String
  let policyVersion: String?
  let body: ReplyBody?
  let fieldSources: [String: String]
  let facts: [Fact]
  let missingFacts: [String]?
  /// Facts a source offered that were refused, with why; nil when none were.
  let refusedFacts: [String]?
  /// Fact sources that failed or timed out for this request, with why; nil when none did.
  let unavailableSources: [String]?
  let trace: [Attempt]?
  let explanation: DecisionExplanation?

  /// Builds the report of `decision`, made by `policy`.
  public init(_ decision: Decision, policy: CompiledPolicy) {
    switch decision.action {
    case .respond: (action, reason, violations) = ("respond", nil, nil)
    case .hold: (action, reason, violations) = ("hold", decision.holdReason, nil)
    case .skip(let skip):
      action = "skip"
      reason = skip.description(body: decision.body)
      switch skip {
      case .violatesAppleRules(let list): violations = list.map(\.errorName)
      case .violatesGooglePlayRules(let list): violations = list.map(\.name)
      default: violations = nil
      }
    }
    rule = DecidingRule(name: decision.ruleIndex == nil ? nil : decision.rule)
    otherwise = decision.ruleIndex == nil
    self.policy = decision.policyName
    policyVersion = decision.policyVersion
    body = decision.reply
    fieldSources = decision.fieldSources.mapValues(\.description)
    let schema = policy.schema
    facts = schema.facts.indices.compactMap { slot in
      let fact = schema.facts[slot]
      guard let value = decision.facts.values[slot] else { return nil }
      return Fact(
        name: fact.name, value: value.formatted(as: fact.type),
        source: decision.facts.provenance[fact.name])
    }
    missingFacts = decision.trace.map { $0.missingFacts.map { schema.facts[$0].name } }
    refusedFacts = decision.facts.refused.isEmpty ? nil : decision.facts.refused
    unavailableSources =
      decision.facts.failures.isEmpty ? nil : decision.facts.failures.map(\.description)
    explanation = DecisionExplanation(decision, policy: policy)
    trace = decision.trace.map { trace in
      trace.attempts.map { attempt in
        Attempt(
          rule: policy.checked.rules[attempt.rule].name, result: attempt.result,
          conditions: attempt.conditions.map { DecisionReport.condition($0, policy) })
      }
    }
  }

  private static func condition(_ entry: PolicyTrace.ConditionValue, _ policy: CompiledPolicy)
    -> Condition
  {
    let span = policy.checked.nodeSpans[entry.node]
    let location = policy.checked.source.location(of: span.start)
    return Condition(
      text: policy.checked.source.text(of: span), line: location.line, column: location.column,
      value: entry.value?.formatted(as: policy.checked.nodeTypes[entry.node]))
  }

  /// The report as pretty, key-sorted JSON.
  public func jsonText() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
