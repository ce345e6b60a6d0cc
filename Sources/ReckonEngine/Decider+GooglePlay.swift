import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

extension Decider {
  /// Decides a Google Play review on `facts`: the policy, then the answer, consent and Google's
  /// rules; with `trace`, records what the policy looked at.
  public func decide(_ request: GooglePlayReviewRequest, facts: GatheredFacts, trace: Bool = false)
    -> Decision
  {
    let decided = policy.evaluate(facts.values, trace: trace)
    let rule = policy.ruleName(decided.rule)
    var builder = GooglePlayAnswerBuilder(
      facts: facts.values, decided: decided, rule: rule,
      pendingRefundToken: request.review.pendingRefundToken)
    builder.events = facts.usageEvents
    builder.eventSources = facts.usageEventSources
    let outcome = builder.build(policy: policy)
    return Decision(
      action: outcome.action, reply: outcome.answer.map(ReplyBody.googlePlay), rule: rule,
      ruleIndex: decided.rule, sourceList: outcome.sources, trace: decided.trace, facts: facts,
      policyName: policy.checked.name, policyVersion: policy.checked.version,
      decidedAt: request.receivedAt, heldBy: heldBy(outcome.action, decided), store: .googlePlay)
  }
}
