/// The warnings for a rule (or `otherwise`) that decides some requests with a body the store's
/// rules refuse, so that no reply is sent: the bounded choice (the App Store's GRANT_PRORATED)
/// without a percentage strictly between 0% and 100%, and a `set` of the percentage for an exempt
/// category (auto-renewable subscriptions) or, other than 0%, for a purchase not delivered.
///
/// A warning is given only when `ConditionRegions` shows such a request: one the rule matches, no
/// rule above it matches, and whose body the store refuses. Regions leave out what they cannot
/// read, so the check never warns wrongly, but may stay silent.
struct NoReplyCheck {
  /// What the deciding actions do to the body, as far as this check is concerned.
  struct Reply {
    enum Percent: Equatable {
      case fromFacts
      case constant(Double)
      /// The bounded fact itself, `set consumptionPercentage = usage.consumed`.
      case boundedFact
      case computed
    }

    enum Delivery: Equatable {
      case fromFacts
      case required
      case other(String)
      case computed
    }

    var prefersChoice = false
    /// For `follow FACT`: the fact, and its values whose answer is the bounded choice; the
    /// choice is preferred only for requests with one of them.
    var followed: (slot: Int, ordinals: Set<Int>)?
    var answers = true
    var percent = Percent.fromFacts
    var percentSpan: SourceSpan?
    var delivery = Delivery.fromFacts
  }

  /// The box comparisons one search for a request without a reply may make.
  static let searchBudget = 2_000

  let policy: CheckedPolicy
  let bounded: BoundedChoice
  let category: Int
  let required: Int
  let usage: Int
  let consent: Int?
  let exempt: Set<Int>
  let others: Set<Int>
  let requiredOrdinal: Int
  let otherDeliveries: Set<Int>
  /// For each rule, the values its `and` chain leaves the category fact: every request the rule
  /// matches has one of them (nil when the chain does not restrict it).
  let categoryDomains: [FactDomain?]

  init?(policy: CheckedPolicy, categoryDomains: [FactDomain?]) {
    let schema = policy.schema
    guard let bounded = schema.boundedChoice,
      let category = schema.slot(ofFact: bounded.categoryFact),
      let required = schema.slot(ofFact: bounded.requiredFact),
      let usage = schema.slot(ofFact: bounded.boundedFact),
      case .enumeration(let categories) = schema.facts[category].type,
      case .enumeration(let deliveries) = schema.facts[required].type,
      let requiredOrdinal = deliveries.ordinal(of: bounded.requiredValue)
    else { return nil }
    self.policy = policy
    self.bounded = bounded
    (self.category, self.required, self.usage) = (category, required, usage)
    consent = schema.consentFact.flatMap(schema.slot(ofFact:))
    exempt = Set(bounded.exemptCategories.compactMap(categories.ordinal(of:)))
    others = Set(0..<categories.cases.count).subtracting(exempt)
    self.requiredOrdinal = requiredOrdinal
    otherDeliveries = Set(0..<deliveries.cases.count).subtracting([requiredOrdinal])
    self.categoryDomains = categoryDomains
  }

  func warnings() -> [Diagnostic] {
    let replies = policy.rules.map { reply($0.actions) }
    let otherwise = reply(policy.otherwise)
    guard (replies + [otherwise]).contains(where: isChecked) else { return [] }
    // A followed fact is pinned too: a part of a condition the regions cannot read is then
    // taken as unknowable rather than as free to give it the choice's value.
    let followed = Set((replies + [otherwise]).compactMap { $0.followed?.slot })
    var regions = ConditionRegions(
      policy: policy, pinned: Set([category, required, usage]).union(followed))
    var notTrue: [RequestRegion] = []
    var warnings: [Diagnostic] = []
    for (index, rule) in policy.rules.enumerated() {
      let condition = regions.regions(of: rule.condition)
      if isChecked(replies[index]) {
        let subject = Subject(
          what: "rule '\(rule.name)'" + following(replies[index]), span: rule.nameSpan,
          isOtherwise: false, onlyExempt: onlyExempt(categoryDomains[index]))
        warnings += check(
          replies[index], subject, matched: condition.whenTrue, notTrue, &regions.work)
      }
      notTrue.append(condition.whenNotTrue)
    }
    if let span = policy.otherwiseSpan, isChecked(otherwise) {
      let subject = Subject(
        what: "'otherwise'" + following(otherwise), span: span, isOtherwise: true,
        onlyExempt: false)
      warnings += check(otherwise, subject, matched: .everything, notTrue, &regions.work)
    }
    return warnings
  }

  /// Who decides, for the messages.
  struct Subject {
    let what: String
    let span: SourceSpan
    let isOtherwise: Bool
    /// Whether every request it matches has an exempt category.
    let onlyExempt: Bool
  }

  // MARK: The requests without a reply

  private func check(
    _ reply: Reply, _ subject: Subject, matched: RequestRegion, _ earlier: [RequestRegion],
    _ work: inout Int
  ) -> [Diagnostic] {
    func reached(_ refused: RequestRegion) -> Bool {
      guard work <= ConditionRegions.workLimit else { return false }
      let requests = matched.intersected(with: refused, work: &work)
      var budget = Self.searchBudget
      defer { work += Self.searchBudget - budget }
      return requests.meets(all: earlier, budget: &budget)
    }
    var warnings: [Diagnostic] = []
    if reply.prefersChoice {
      // Followed, the choice is preferred only for requests with one of those values.
      let chosen =
        reply.followed.map { [($0.slot, ConditionAtom.Restriction.oneOf($0.ordinals))] }
        ?? []
      if case .constant(let percent) = reply.percent, percent <= 0 || percent >= 100 {
        // Refused for every request: the exempt categories take no percentage at all.
        if reached(region(deliveryKnown(reply) + chosen)) {
          warnings.append(choiceWithPercent(percent, subject, at: reply.percentSpan))
        }
        return warnings
      }
      if case .other(let value) = reply.delivery, reply.percent == .fromFacts {
        if reached(region([(category, .oneOf(others))] + chosen)) {
          warnings.append(choiceUndelivered(value, subject))
        }
      } else if let (undelivered, unbounded) = choiceRegions(reply, chosen) {
        let missing = (undelivered.map(reached) ?? false, reached(unbounded))
        if missing.0 || missing.1 {
          warnings.append(choiceUnbounded(subject, undelivered: missing.0, unbounded: missing.1))
        }
      }
    }
    guard reply.percent != .fromFacts else { return warnings }
    let forExempt = reached(region([(category, .oneOf(exempt))] + deliveryKnown(reply)))
    let undelivered = percentUndeliveredRegion(reply).map(reached) ?? false
    if forExempt || undelivered {
      warnings.append(
        percentRefused(reply, subject, forExempt: forExempt, undelivered: undelivered))
    }
    return warnings
  }

  /// For the choice with the percentage from facts: the requests not delivered (nil when a `set`
  /// decides delivery) and those delivered with the bounded fact missing, 0% or 100%.
  private func choiceRegions(_ reply: Reply, _ chosen: [(Int, ConditionAtom.Restriction)])
    -> (RequestRegion?, RequestRegion)?
  {
    let category = (self.category, ConditionAtom.Restriction.oneOf(others))
    let usageOutside: [ConditionAtom.Restriction]
    switch reply.percent {
    case .fromFacts:
      usageOutside = [
        .missing, .within(NumericRange(upper: 0)), .within(NumericRange(lower: 100)),
      ]
    case .boundedFact:
      // A missing one leaves the `set` without a value: no reply either, but not the store's doing.
      usageOutside = [.within(NumericRange(upper: 0)), .within(NumericRange(lower: 100))]
    case .constant, .computed:
      return nil
    }
    var delivered = deliveryKnown(reply)
    var undelivered: RequestRegion?
    if reply.delivery == .fromFacts && reply.percent == .fromFacts {
      delivered = [(required, .oneOf([requiredOrdinal]))]
      undelivered = region([category, (required, .oneOf(otherDeliveries))] + chosen)
    }
    var unbounded = RequestRegion.nothing
    for restriction in usageOutside {
      unbounded = unbounded.union(region([category, (usage, restriction)] + delivered + chosen))
    }
    return (undelivered, unbounded)
  }

  /// The requests sent a percentage other than 0% though not delivered; nil when none can be shown.
  private func percentUndeliveredRegion(_ reply: Reply) -> RequestRegion? {
    var parts: [(Int, ConditionAtom.Restriction)] = [(category, .oneOf(others))]
    switch reply.percent {
    case .constant(let percent) where percent != 0: break
    case .boundedFact: parts.append((usage, .within(NumericRange(lower: 0, lowerOpen: true))))
    default: return nil
    }
    switch reply.delivery {
    case .fromFacts: parts.append((required, .oneOf(otherDeliveries)))
    case .other: break
    case .required, .computed: return nil
    }
    return region(parts)
  }

  // MARK: Helpers

  /// `, following FACT,` for a reply that prefers the choice by following a fact, for the
  /// messages: the rule names no choice itself.
  private func following(_ reply: Reply) -> String {
    reply.followed.map { ", following \(policy.schema.facts[$0.slot].name)," } ?? ""
  }

  /// Whether the actions answer with something this check looks at.
  private func isChecked(_ reply: Reply) -> Bool {
    reply.answers && (reply.prefersChoice || reply.percent != .fromFacts)
  }

  private func reply(_ actions: [CheckedAction]) -> Reply {
    var reply = Reply()
    for action in actions {
      switch action {
      case .choose(_, let name): reply.prefersChoice = name == bounded.choice
      case .follow(let slot, let answers):
        let ordinals = Set(
          answers.indices.filter {
            if case .choose(_, let name) = answers[$0] { return name == bounded.choice }
            return false
          })
        if !ordinals.isEmpty {
          reply.prefersChoice = true
          reply.followed = (slot, ordinals)
        }
      case .withholdReply: reply.answers = false
      case .set(let field, let value) where field.name == bounded.overridingField:
        reply.percentSpan = value.span
        if case .percent(let percent)? = value.constantValue {
          reply.percent = .constant(percent)
        } else if ConditionAtom.inline(value, policy.lets).kind == .fact(slot: usage) {
          reply.percent = .boundedFact
        } else {
          reply.percent = .computed
        }
      case .set(let field, let value) where field.name == bounded.requiredField:
        guard case .enumeration(let ordinal)? = value.constantValue,
          case .enumeration(let type) = policy.schema.facts[required].type
        else {
          reply.delivery = .computed
          continue
        }
        reply.delivery = ordinal == requiredOrdinal ? .required : .other(type.cases[ordinal])
      default:
        break
      }
    }
    return reply
  }

  /// A body needs the required fact when no `set` gives its field: without it there is no reply
  /// anyway, for another reason than the store's rules.
  private func deliveryKnown(_ reply: Reply) -> [(Int, ConditionAtom.Restriction)] {
    var parts: [(Int, ConditionAtom.Restriction)] = []
    if reply.delivery == .fromFacts { parts.append((required, .present)) }
    return parts
  }

  /// The requests with these restrictions whose customer consented (without consent no reply
  /// goes whatever the body).
  private func region(_ parts: [(Int, ConditionAtom.Restriction)]) -> RequestRegion {
    var unused = 0
    var result = RequestRegion.everything
    for (slot, restriction) in parts + (consent.map { [($0, .oneOf([1]))] } ?? []) {
      var domain = FactDomain(type: policy.schema.facts[slot].type)
      domain.apply(restriction)
      result = result.intersected(with: RequestRegion(slot: slot, domain: domain), work: &unused)
    }
    return result
  }

  private func onlyExempt(_ domain: FactDomain?) -> Bool {
    guard let domain, !domain.mayBeMissing, let ordinals = domain.ordinals else { return false }
    return !ordinals.isEmpty && ordinals.isSubset(of: exempt)
  }
}
