import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

/// Builds the answer Google Play receives from the facts and the deciding rule's actions, as
/// `BodyBuilder` builds Apple's: consent first, then the rule's overrides over the facts, then
/// Reckon's defaults, then Google's rules as a last gate.
package struct GooglePlayAnswerBuilder {
  package let facts: FactValues
  package let actions: [DecidedAction]
  package let rule: String
  package let ruleIndex: Int?
  package let pendingRefundToken: String
  /// The purchase's recorded uses, sent as evidence, and the sources that gave them.
  package var events: [UsageEvent] = []
  package var eventSources: [String] = []

  package struct Outcome {
    package var action: DecisionAction
    package var answer: ReviewRefundRequest?
    package var sources: FieldSourceList
  }

  /// A builder for the decision `decided` of the rule named `rule`, answering the review with
  /// `pendingRefundToken`.
  package init(
    facts: FactValues, decided: PolicyDecision, rule: String, pendingRefundToken: String
  ) {
    self.facts = facts
    self.actions = decided.actions
    self.rule = rule
    self.ruleIndex = decided.rule
    self.pendingRefundToken = pendingRefundToken
  }

  /// The answer and what to do with it; `policy`, the one that decided, is read only to say
  /// why a `set` has no value.
  package func build(policy: CompiledPolicy) -> Outcome {
    var sources = FieldSourceList(capacity: 5)
    guard case .boolean(true) = facts["customer.consented"] else {
      let said = facts["customer.consented"].map { $0.formatted(as: .boolean) } ?? "missing"
      return Outcome(action: .skip(.noConsent(said)), answer: nil, sources: FieldSourceList())
    }
    if actions.contains(where: \.isWithholdReply) {
      return Outcome(
        action: .skip(.policyDoesNotRespond(rule: rule)), answer: nil, sources: sources)
    }
    if let unset = actions.first(where: { if case .set(_, nil) = $0 { true } else { false } }),
      case .set(let field, _) = unset
    {
      return Outcome(
        action: .skip(
          .setReadsMissingFact(
            field: field.name, rule: rule,
            because: BodyBuilder.whyUnset(
              field, policy: policy, facts: facts, ruleIndex: ruleIndex))), answer: nil,
        sources: sources)
    }
    let sample: Bool
    if case .boolean(let set)? = setValue("sampleContentProvided") {
      sample = set
      sources.add("sampleContentProvided", .rule(rule))
    } else if case .boolean(let fact)? = facts["product.sample_offered"] {
      sample = fact
      sources.add("sampleContentProvided", .fact("product.sample_offered"))
    } else {
      return Outcome(
        action: .skip(
          .missingRequiredFact(field: "sampleContentProvided", fact: "product.sample_offered")),
        answer: nil, sources: sources)
    }
    let answer = ReviewRefundRequest(
      pendingRefundToken: pendingRefundToken, sampleContentProvided: sample,
      refundPreference: preference(&sources),
      consumptionPercentageMilliunits: milliunits(&sources),
      consumptionUsageEvents: usageEvents(&sources))
    let violations = ReviewRefundValidator.violations(of: answer)
    if !violations.isEmpty {
      return Outcome(
        action: .skip(.violatesGooglePlayRules(violations)), answer: answer, sources: sources)
    }
    return Outcome(
      action: actions.contains(where: \.isHoldForReview) ? .hold : .respond, answer: answer,
      sources: sources
    )
  }

  /// The recorded uses, the most recent first, as many as Google takes; nil when there are none.
  /// An event that breaks one of Google's rules (an IP address or region code that is not one,
  /// a description too long) is left out and named in `sources`: it is evidence, and the one
  /// answer Google takes must not be lost over it.
  private func usageEvents(_ sources: inout FieldSourceList) -> [ConsumptionUsageEvent]? {
    guard !events.isEmpty else { return nil }
    let limit = GooglePlayRuleViolation.maximumUsageEvents
    var kept: [ConsumptionUsageEvent] = []
    var leftOut: [GooglePlayRuleViolation] = []
    var leftOutCount = 0
    let recent = events.sorted { ($0.time ?? .distantPast) > ($1.time ?? .distantPast) }
    for (index, event) in recent.enumerated() where kept.count < limit {
      let usage = Self.usageEvent(event)
      let broken = ReviewRefundValidator.violations(of: usage, at: index)
      if broken.isEmpty {
        kept.append(usage)
      } else {
        leftOutCount += 1
        leftOut += broken
      }
    }
    let from =
      eventSources.isEmpty
      ? "the fact sources" : eventSources.map { "'\($0)'" }.joined(separator: " and ")
    var said =
      events.count - leftOutCount > limit
      ? "the \(limit) most recent of \(events.count - leftOutCount) usage events from \(from)"
      : "\(kept.count) usage event\(kept.count == 1 ? "" : "s") from \(from)"
    if leftOutCount > 0 {
      said +=
        "; \(leftOutCount) left out, breaking Google's rules (counted most recent first): "
        + leftOut.prefix(3).map(\.description).joined(separator: "; ")
        + (leftOut.count > 3 ? "; and \(leftOut.count - 3) more" : "")
    }
    sources.add("consumptionUsageEvents", .default(said))
    return kept.isEmpty ? nil : kept
  }

  /// One recorded use as Google's answer carries it.
  private static func usageEvent(_ event: UsageEvent) -> ConsumptionUsageEvent {
    let location =
      [event.regionCode, event.administrativeArea, event.locality].allSatisfy { $0 == nil }
      ? nil
      : CoarseLocation(
        regionCode: event.regionCode, administrativeArea: event.administrativeArea,
        locality: event.locality)
    return ConsumptionUsageEvent(
      obfuscatedAccountId: event.accountId, obfuscatedProfileId: event.profileId,
      consumptionTime: event.time.map(RFC3339Time.text), ipAddress: event.ipAddress,
      location: location, consumptionItemDescription: event.description)
  }

  private func setValue(_ field: String) -> Value? {
    for case .set(let descriptor, let value) in actions where descriptor.name == field {
      return value
    }
    return nil
  }

  private func milliunits(_ sources: inout FieldSourceList) -> Int? {
    let name = "consumptionPercentage"
    if case .percent(let percent)? = setValue(name) {
      sources.add(name, .rule(rule))
      return BodyBuilder.milliunits(percent)
    }
    if case .enumeration(let ordinal)? = facts["delivery.status"],
      FactSchema.deliveryStatus.cases[ordinal] != "DELIVERED"
    {
      sources.add(name, .default("0: the purchase was not delivered, so nothing of it was used"))
      return 0
    }
    guard case .percent(let percent)? = facts["usage.consumed"] else {
      sources.add(name, .default("left out: usage.consumed is missing"))
      return nil
    }
    sources.add(name, .fact("usage.consumed"))
    return BodyBuilder.milliunits(percent)
  }

  private func preference(_ sources: inout FieldSourceList) -> GooglePlayRefundPreference {
    for case .choose(_, let name) in actions {
      if let preference = GooglePlayRefundPreference(rawValue: name) {
        sources.add("refundPreference", .rule(rule))
        return preference
      }
    }
    let who = rule == "otherwise" ? "otherwise" : "the rule"
    sources.add(
      "refundPreference",
      .default(
        "NEUTRAL: \(who) shares data only, and Google takes no answer without a preference"))
    return .neutral
  }
}
