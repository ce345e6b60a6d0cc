import ReckonState

/// Where a decision's rule is listed in a `RuleReport`: under the policy whose text it was
/// decided by (its SHA-256), else under the first policy of its name. Two policy files may carry
/// the same `policy` name (a copy per app, or one per store), and matching by name alone would
/// give the first every decision and list the other's rules as dead.
struct RuleLines {
  private var policiesByText: [String: Int] = [:]
  private var policiesByName: [String: Int] = [:]
  private var rulesByName: [[String: Int]] = []

  /// The lines of `policies`, by policy index and rule index.
  init(_ policies: [RuleReport.PolicyRules]) {
    for (index, policy) in policies.enumerated() {
      if policiesByText[policy.source.sha256] == nil {
        policiesByText[policy.source.sha256] = index
      }
      if policiesByName[policy.source.name] == nil { policiesByName[policy.source.name] = index }
      var rules: [String: Int] = [:]
      for (ruleIndex, rule) in policy.rules.enumerated() where rules[rule.name] == nil {
        rules[rule.name] = ruleIndex
      }
      rulesByName.append(rules)
    }
  }

  /// The policy and rule index `decision` counts under, nil for a rule no policy lists.
  func line(of decision: DecidedOutcome) -> (policy: Int, rule: Int)? {
    if let sha256 = decision.policySHA256, let policy = policiesByText[sha256],
      let rule = rulesByName[policy][decision.rule]
    {
      return (policy, rule)
    }
    guard let policy = policiesByName[decision.policyName],
      let rule = rulesByName[policy][decision.rule]
    else { return nil }
    return (policy, rule)
  }
}
