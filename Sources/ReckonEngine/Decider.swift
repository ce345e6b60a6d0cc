import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// Decides one request: the policy over the gathered facts, then the body, consent and Apple's
/// rules. Pure and deterministic given the facts and the request's receive time.
public struct Decider: Sendable {
  /// The compiled policy.
  public let policy: CompiledPolicy
  /// The fact schema the policy was checked against.
  public let schema: FactSchema
  /// Where the body's facts are in the policy's schema, found once rather than looked up by
  /// name on every decision.
  private let slots: BodyFactSlots

  /// Creates a decider for a policy checked against `schema`.
  public init(policy: CompiledPolicy, schema: FactSchema) {
    self.policy = policy
    self.schema = schema
    self.slots = BodyFactSlots(policy.schema)
  }

  /// Decides `request` on `facts`; with `trace`, records what the policy looked at.
  public func decide(_ request: RefundRequest, facts: GatheredFacts, trace: Bool = false)
    -> Decision
  {
    let decided = policy.evaluate(facts.values, trace: trace)
    let rule = policy.ruleName(decided.rule)
    let outcome = BodyBuilder(
      facts: facts.values, decided: decided, rule: rule,
      context: ConsumptionValidationContext(transaction: request.transaction),
      slots: facts.values.schema.isSame(as: policy.schema) ? slots : nil
    ).build(policy: policy)
    // Made in one go: a field set afterwards copies the whole decision.
    return Decision(
      action: outcome.action, reply: outcome.body.map(ReplyBody.appStore), rule: rule,
      ruleIndex: decided.rule, sourceList: outcome.sources, trace: decided.trace, facts: facts,
      policyName: policy.checked.name, policyVersion: policy.checked.version,
      decidedAt: request.receivedAt, heldBy: heldBy(outcome.action, decided))
  }

  /// The `hold` clause that held the decision, by name: a decision held but not sent (no
  /// consent, Apple's rules) is not held by anything.
  func heldBy(_ action: DecisionAction, _ decided: PolicyDecision) -> String? {
    guard case .hold = action else { return nil }
    return decided.hold.map(policy.holdName)
  }
}
