import ReckonAppStore
import ReckonFacts
import ReckonPolicy

/// Builds the body Apple receives from the facts and the deciding rule's actions: facts first,
/// then the rule's overrides, then Reckon's defaults, then Apple's rules as a last gate.
package struct BodyBuilder {
  package let facts: FactValues
  package let actions: [DecidedAction]
  package let rule: String
  /// The index of the rule that decided (nil for `otherwise`), to say why a `set` has no value.
  package let ruleIndex: Int?
  /// The transaction's product and ownership types, for Apple's rules that depend on them.
  package let context: ConsumptionValidationContext
  /// Where the body's facts are in `facts`; found once per schema by callers deciding many.
  package var slots: BodyFactSlots
  /// Whether to record where each field came from; a dry-run leaves it off, as it shows only
  /// the verdict.
  package var tracksSources = true

  package struct Outcome {
    package var action: DecisionAction
    package var body: ConsumptionRequest?
    package var sources: FieldSourceList
  }

  /// A builder for the decision `decided` of the rule named `rule`.
  package init(
    facts: FactValues, decided: PolicyDecision, rule: String,
    context: ConsumptionValidationContext, slots: BodyFactSlots? = nil
  ) {
    self.facts = facts
    self.actions = decided.actions
    self.rule = rule
    self.ruleIndex = decided.rule
    self.context = context
    self.slots = slots ?? BodyFactSlots(facts.schema)
  }

  /// The body and what to do with it. `policy`, the one that decided, is read only to say why a
  /// `set` has no value; it is a parameter rather than a property because copying it into each
  /// builder (a request in a dry-run) retained every part of it.
  package func build(policy: CompiledPolicy) -> Outcome {
    var sources = tracksSources ? FieldSourceList(capacity: 5) : FieldSourceList()
    guard case .boolean(true) = facts[slots.consented] else {
      let said = facts[slots.consented].map { $0.formatted(as: .boolean) } ?? "missing"
      return Outcome(action: .skip(.noConsent(said)), body: nil, sources: FieldSourceList())
    }
    if tracksSources { sources.add("customerConsented", .fact("customer.consented")) }
    if actions.contains(where: \.isWithholdReply) {
      return Outcome(action: .skip(.policyDoesNotRespond(rule: rule)), body: nil, sources: sources)
    }
    if let unset = actions.first(where: { if case .set(_, nil) = $0 { true } else { false } }),
      case .set(let field, _) = unset
    {
      return Outcome(
        action: .skip(
          .setReadsMissingFact(
            field: field.name, rule: rule, because: whyUnset(field, policy: policy))),
        body: nil, sources: sources)
    }
    let delivery: DeliveryStatus
    switch field("deliveryStatus", fact: "delivery.status", slot: slots.deliveryStatus, &sources) {
    case .enumeration(let ordinal)?:
      delivery = BodyFactSlots.deliveryStatuses[ordinal]
    default:
      return Outcome(
        action: .skip(.missingRequiredFact(field: "deliveryStatus", fact: "delivery.status")),
        body: nil, sources: sources)
    }
    guard
      case .boolean(let sample)? = field(
        "sampleContentProvided", fact: "product.sample_offered", slot: slots.sampleOffered,
        &sources)
    else {
      return Outcome(
        action: .skip(
          .missingRequiredFact(field: "sampleContentProvided", fact: "product.sample_offered")),
        body: nil, sources: sources)
    }
    let body = ConsumptionRequest(
      customerConsented: true, deliveryStatus: delivery, sampleContentProvided: sample,
      consumptionPercentage: percentage(delivery, &sources),
      refundPreference: refundPreference(&sources))
    // Apple's rules for these depend on the product type; without it they cannot be checked.
    if context.productType == nil,
      body.consumptionPercentage != nil || body.refundPreference == .grantProrated
    {
      return Outcome(action: .skip(.productTypeUnknown), body: body, sources: sources)
    }
    let violations = ConsumptionRequestValidator.validate(
      body, context: context)
    if !violations.isEmpty {
      return Outcome(action: .skip(.violatesAppleRules(violations)), body: body, sources: sources)
    }
    return Outcome(
      action: actions.contains(where: \.isHoldForReview) ? .hold : .respond, body: body,
      sources: sources)
  }

  /// Why the deciding rule's `set` of `field` has no value: the missing facts it reads, by name,
  /// or the division by zero or the currencies that made it unknown.
  private func whyUnset(_ field: FieldDescriptor, policy: CompiledPolicy) -> String {
    Self.whyUnset(field, policy: policy, facts: facts, ruleIndex: ruleIndex)
  }

  /// Why the `set` of `field` by the rule at `ruleIndex` (nil: `otherwise`) has no value on
  /// `facts`; shared with Google Play's answer builder.
  package static func whyUnset(
    _ field: FieldDescriptor, policy: CompiledPolicy, facts: FactValues, ruleIndex: Int?
  ) -> String {
    let written = ruleIndex.map { policy.checked.rules[$0].actions } ?? policy.checked.otherwise
    for case .set(let descriptor, let value) in written where descriptor.name == field.name {
      let reader = ConditionReader(policy: policy, facts: facts)
      let missing = reader.missingFacts(in: value)
      if !missing.isEmpty {
        return missing.joined(separator: ", ") + (missing.count == 1 ? " is" : " are") + " missing"
      }
      if let cause = reader.unknownCause(in: value) { return cause }
    }
    return "its value cannot be worked out from the facts"
  }

  /// A required field: the rule's `set` value, else the fact.
  private func field(
    _ name: String, fact: String, slot: Int, _ sources: inout FieldSourceList
  ) -> Value? {
    if let value = setValue(name) {
      if tracksSources { sources.add(name, .rule(rule)) }
      return value
    }
    guard let value = facts[slot] else { return nil }
    if tracksSources { sources.add(name, .fact(fact)) }
    return value
  }

  private func setValue(_ field: String) -> Value? {
    for case .set(let descriptor, let value) in actions where descriptor.name == field {
      return value
    }
    return nil
  }

  private func percentage(_ delivery: DeliveryStatus, _ sources: inout FieldSourceList)
    -> Int?
  {
    let name = "consumptionPercentage"
    if case .percent(let percent)? = setValue(name) {
      if tracksSources { sources.add(name, .rule(rule)) }
      return BodyBuilder.milliunits(percent)
    }
    if context.productType == .autoRenewable {
      if tracksSources {
        sources.add(
          name, .default("left out: Apple takes no percentage for auto-renewable subscriptions"))
      }
      return nil
    }
    // Apple refuses anything but 0 for a purchase not delivered, and 0 is true of it whatever the
    // usage facts say or whether they are there at all.
    if delivery != .delivered {
      if tracksSources {
        sources.add(name, .default("0: the purchase was not delivered, so nothing of it was used"))
      }
      return 0
    }
    guard case .percent(let percent)? = facts[slots.usageConsumed] else {
      if tracksSources { sources.add(name, .default("left out: usage.consumed is missing")) }
      return nil
    }
    if tracksSources { sources.add(name, .fact("usage.consumed")) }
    return BodyBuilder.milliunits(percent)
  }

  private func refundPreference(_ sources: inout FieldSourceList) -> RefundPreference? {
    for case .choose(_, let name) in actions {
      if tracksSources { sources.add("refundPreference", .rule(rule)) }
      return RefundPreference(rawValue: name)
    }
    if tracksSources {
      sources.add(
        "refundPreference",
        .default(
          rule == "otherwise"
            ? "left out: otherwise shares data only" : "left out: the rule shares data only"))
    }
    return nil
  }

  /// A percentage in Apple's milliunits (40% is 40000); values far out of range stay out of range.
  ///
  /// A share strictly between 0% and 100% stays strictly between 0 and 100000 (99.9996% is 99999,
  /// 0.0004% is 1): rounding never turns part of a purchase into none or all of it, which Apple
  /// would refuse with GRANT_PRORATED. Exactly 0% and 100% are 0 and 100000.
  package static func milliunits(_ percent: Double) -> Int {
    let milli = (percent * 1_000).rounded()
    guard milli.isFinite, abs(milli) < 1e12 else { return percent < 0 ? -1 : 1_000_000_000_000 }
    if percent > 0, percent < 100 {
      return min(max(Int(milli), 1), ConsumptionRequestValidator.fullConsumption - 1)
    }
    return Int(milli)
  }
}

/// The slots of the facts a body is built from, in one schema.
package struct BodyFactSlots: Sendable {
  package let consented: Int
  package let deliveryStatus: Int
  package let sampleOffered: Int
  package let usageConsumed: Int

  /// Finds the slots; a schema without one of the facts gives a slot no value is ever in.
  package init(_ schema: PolicySchema) {
    func slot(_ name: String) -> Int { schema.slot(ofFact: name) ?? -1 }
    consented = slot("customer.consented")
    deliveryStatus = slot("delivery.status")
    sampleOffered = slot("product.sample_offered")
    usageConsumed = slot("usage.consumed")
  }

  /// Apple's delivery status for each ordinal of the `delivery.status` enumeration.
  package static let deliveryStatuses = FactSchema.deliveryStatus.cases.map {
    DeliveryStatus(rawValue: $0) ?? .undeliveredOther
  }
}
