/// The warnings of a checked policy: rules that can never decide, optional facts read without a
/// guard, and rules that answer only without consent. Warnings never stop a load.
struct PolicyLints {
  /// What the lints need to know about one `let`, worked out once: a let only uses earlier lets, so
  /// looking through lets never expands one twice (lets built from each other stay linear).
  struct LetSummary {
    /// Its `and` parts when it is a condition, each shape once.
    let conjuncts: [ResolvedExpression]
    /// The slots of the facts it reads outside `is missing` tests, in first-read order.
    let reads: [Int]
    /// The slots of the facts it tests with `is missing` or `is not missing`.
    let guards: Set<Int>
    /// The slots of the facts it reads only beside an `or`, where a missing one leaves the let to
    /// the other side (`Read.besideOr`).
    let readsBesideOr: Set<Int>
  }

  /// One fact read by a condition, with the span to point at and whether it is read only in a
  /// part the rule can do without: under an `or` (or an `and` under `not`), a missing fact makes
  /// that part unknown, and the other side can still make the rule match.
  struct Read {
    let slot: Int
    let span: SourceSpan
    let besideOr: Bool
    /// The `!=` or `not in` comparison the fact is read in directly, if any: a request without
    /// the fact is most likely one the author meant it to match, as its value is not the one
    /// named.
    var exclusion: SourceSpan? = nil
  }

  let policy: CheckedPolicy
  private(set) var lets: [LetSummary] = []

  init(policy: CheckedPolicy) {
    self.policy = policy
    for checked in policy.lets {
      var reads: [Read] = []
      collectReads(checked.value, at: nil, into: &reads)
      var guards: Set<Int> = []
      collectGuards(checked.value, into: &guards)
      var seen: Set<Int> = []
      let summary = LetSummary(
        conjuncts: conjuncts(of: checked.value),
        reads: reads.map(\.slot).filter { seen.insert($0).inserted },
        guards: guards, readsBesideOr: Self.onlyBesideOr(reads))
      lets.append(summary)
    }
  }

  func warnings() -> [Diagnostic] {
    var warnings = reachability()
    for rule in policy.rules {
      warnings += unguardedReads(in: rule)
      warnings += contradictingSets(in: rule)
      if let warning = singleCurrency(rule.condition, "rule '\(rule.name)'", at: rule.nameSpan) {
        warnings.append(warning)
      }
      if let warning = answersWithoutConsent(rule, conjuncts(of: rule.condition)) {
        warnings.append(warning)
      }
    }
    for hold in policy.holds {
      warnings += unguardedReads(in: hold)
      if let warning = singleCurrency(hold.condition, "hold '\(hold.name)'", at: hold.nameSpan) {
        warnings.append(warning)
      }
    }
    return warnings + unguardedReadsInOtherwise()
  }

  // MARK: Money in one currency

  /// A condition that bounds money worked out from facts only by amounts in one currency,
  /// without rates for it: a purchase in any other currency makes the comparison unknown, and
  /// the rule never matches it (`purchase.price > 50 USD` for a price in euros).
  private func singleCurrency(_ condition: ResolvedExpression, _ what: String, at span: SourceSpan)
    -> Diagnostic?
  {
    var currencies: Set<String> = []
    var visited: Set<Int> = []
    func walk(_ node: ResolvedExpression) {
      switch node.kind {
      case .compare(let op, let left, let right)
      where left.type == .money && [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
        for (side, other) in [(left, right), (right, left)] {
          if case .money(_, let currency)? = side.constantValue, other.constantValue == nil {
            currencies.insert(currency)
          }
        }
      case .letReference(let index):
        if visited.insert(index).inserted { walk(policy.lets[index].value) }
      default:
        node.children.forEach(walk)
      }
    }
    walk(condition)
    let rates = policy.schema.currencyRates
    guard currencies.count == 1, let currency = currencies.first, rates.perUnit[currency] == nil
    else { return nil }
    return warning(
      .singleCurrencyMoney,
      "\(what) compares money only with amounts in \(currency): for a purchase in another currency the comparison is unknown, and it does not match",
      at: span,
      hint:
        "give each currency a rate under currencies in reckon.json (and check with --config reckon.json), or compare with an amount in each currency you sell in"
    )
  }

  // MARK: Reachability

  private func reachability() -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    var alwaysMatching: CheckedRule?
    var earlier: [(rule: CheckedRule, conditions: Set<ResolvedExpression.Shape>)] = []
    // An earlier rule shadows a later one only when all its conditions are among the later
    // one's, so its first condition must be: earlier rules by that condition, so a rule is
    // compared with the rules that can overlap it, not with all of them.
    var byCondition: [ResolvedExpression.Shape: [Int]] = [:]
    for rule in policy.rules {
      if let blocker = alwaysMatching {
        warnings.append(
          warning(
            .unreachableRule,
            "rule '\(rule.name)' is never tried: rule '\(blocker.name)' always matches first",
            at: rule.nameSpan, hint: "move it above '\(blocker.name)' or remove it"))
        continue
      }
      if rule.condition.constantValue == .boolean(false) {
        warnings.append(
          warning(
            .neverMatches, "rule '\(rule.name)' can never match: its condition is always false",
            at: rule.condition.span))
        continue
      }
      let shapes = Set(conjuncts(of: rule.condition).map(\.shape))
      let candidates = Set(
        (shapes.flatMap { byCondition[$0] ?? [] }) + (byCondition[Self.noCondition] ?? [])
      ).sorted()
      if let found = candidates.first(where: { earlier[$0].conditions.isSubset(of: shapes) }) {
        let shadow = earlier[found]
        warnings.append(
          warning(
            .shadowedRule,
            "rule '\(rule.name)' never decides: whenever it matches, rule '\(shadow.rule.name)' above it matches too",
            at: rule.nameSpan,
            hint: "move it above '\(shadow.rule.name)', or make its condition differ"))
      }
      // Any one condition will do as the key; a rule without any is a candidate for all. The one
      // fewest earlier rules share keeps the lists short: in a catalogue, each rule's product id
      // rather than the reason test half the rules repeat.
      let key = shapes.min { (byCondition[$0]?.count ?? 0) < (byCondition[$1]?.count ?? 0) }
      byCondition[key ?? Self.noCondition, default: []].append(earlier.count)
      earlier.append((rule, shapes))
      if rule.condition.constantValue == .boolean(true) { alwaysMatching = rule }
    }
    if let blocker = alwaysMatching, let span = policy.otherwiseSpan {
      warnings.append(
        warning(
          .unreachableRule, "'otherwise' is never reached: rule '\(blocker.name)' always matches",
          at: span))
    }
    return warnings
  }

  /// The key of the rules with no condition to file them under.
  private static let noCondition = ResolvedExpression.Shape(description: "")

  /// The parts of an `and` chain, looking through `let`s, each shape once.
  package func conjuncts(of expression: ResolvedExpression) -> [ResolvedExpression] {
    switch expression.kind {
    case .and(let left, let right):
      var seen: Set<ResolvedExpression.Shape> = []
      return (conjuncts(of: left) + conjuncts(of: right)).filter { seen.insert($0.shape).inserted }
    case .letReference(let index) where policy.lets[index].value.type == .boolean:
      return lets[index].conjuncts
    case .constant(.boolean(true)): return []
    default: return [expression]
    }
  }

  // MARK: Sets the facts contradict

  /// `set deliveryStatus = DELIVERED` in a rule whose condition says the purchase was not
  /// delivered tells the store something the facts deny: the body should tell the truth.
  private func contradictingSets(in rule: CheckedRule) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    let parts = conjuncts(of: rule.condition)
    for case .set(let field, let value) in rule.actions {
      guard let factName = field.fact, let slot = policy.schema.slot(ofFact: factName),
        let set = value.constantValue,
        let denial = parts.lazy.compactMap({ self.denial(of: set, slot: slot, in: $0) }).first
      else { continue }
      let shown = set.formatted(as: field.type)
      warnings.append(
        warning(
          .setContradictsFacts,
          "rule '\(rule.name)' tells \(policy.schema.vocabulary.store) \(field.name) is \(shown), but its condition says \(denial)",
          at: value.span,
          hint:
            "the body should tell the truth: remove the set, and \(field.name) says what \(factName) says"
        ))
    }
    return warnings
  }

  /// What `condition` says of the fact at `slot` that rules out `value`, in words; nil when it
  /// says nothing that does.
  private func denial(of value: Value, slot: Int, in condition: ResolvedExpression) -> String? {
    let fact = policy.schema.facts[slot]
    func isFact(_ node: ResolvedExpression) -> Bool {
      if case .fact(slot) = node.kind { return true }
      return false
    }
    let shown = "\(fact.name) is not \(value.formatted(as: fact.type))"
    switch condition.kind {
    case .compare(.notEqual, let left, let right) where isFact(left):
      return right.constantValue == value ? shown : nil
    case .compare(.equal, let left, let right) where isFact(left):
      guard let other = right.constantValue, other != value else { return nil }
      return "\(fact.name) is \(other.formatted(as: fact.type))"
    case .membership(let negated, let subject, let members) where isFact(subject):
      let constants = members.compactMap(\.constantValue)
      guard constants.count == members.count else { return nil }
      return constants.contains(value) == negated ? shown : nil
    // `not (delivery.status == DELIVERED)`, the form `reckon fmt` writes a negation in, says what
    // `!=` says; `not` around a list, what the opposite list says.
    case .not(let inner):
      switch inner.kind {
      case .compare(.equal, let left, let right) where isFact(left):
        return right.constantValue == value ? shown : nil
      case .membership(let negated, let subject, let members) where isFact(subject):
        let constants = members.compactMap(\.constantValue)
        guard constants.count == members.count else { return nil }
        return constants.contains(value) != negated ? shown : nil
      default:
        return nil
      }
    case .fact(slot) where fact.type == .boolean:
      return value == .boolean(false) ? "\(fact.name) is true" : nil
    case .not(let inner) where isFact(inner) && fact.type == .boolean:
      return value == .boolean(true) ? "\(fact.name) is false" : nil
    default:
      return nil
    }
  }

  // MARK: Optional facts

  /// What an unguarded read does to a clause, in words: a rule's or a hold's.
  private struct ClauseWords {
    let subject: String
    let fails: String
    let onlyIfOtherSide: String

    static func rule(_ name: String) -> ClauseWords {
      ClauseWords(
        subject: "rule '\(name)'", fails: "the rule does not match",
        onlyIfOtherSide: "the rule matches only if another part of its condition settles it")
    }

    static func hold(_ name: String) -> ClauseWords {
      ClauseWords(
        subject: "hold '\(name)'", fails: "the request is not held",
        onlyIfOtherSide: "the request is held only if another part of its condition settles it")
    }
  }

  private func unguardedReads(in rule: CheckedRule) -> [Diagnostic] {
    unguardedReads(.rule(rule.name), condition: rule.condition, actions: rule.actions)
  }

  /// A hold's condition read as a rule's is: unknown for a request without the fact, so the
  /// request is not held, which is as silent as a rule that does not match.
  private func unguardedReads(in hold: CheckedHold) -> [Diagnostic] {
    unguardedReads(.hold(hold.name), condition: hold.condition, actions: [])
  }

  private func unguardedReads(
    _ words: ClauseWords, condition: ResolvedExpression, actions: [CheckedAction]
  ) -> [Diagnostic] {
    var reads: [Read] = []
    collectReads(condition, at: nil, into: &reads)
    let inCondition = reads.count
    for case .set(_, let value) in actions { collectReads(value, at: nil, into: &reads) }
    let besideOr = Self.onlyBesideOr(Array(reads[..<inCondition]))
    let readBySet = Set(reads[inCondition...].map(\.slot))
    var guarded: Set<Int> = []
    collectGuards(condition, into: &guarded)
    var warned: Set<Int> = []
    var warnings: [Diagnostic] = []
    for read in reads
    where policy.schema.facts[read.slot].isOptional && !guarded.contains(read.slot) {
      guard warned.insert(read.slot).inserted else { continue }
      let name = policy.schema.facts[read.slot].name
      let effect: String
      if besideOr.contains(read.slot) && !readBySet.contains(read.slot) {
        // Three-valued logic: `missing > 5 USD or reason == OTHER` is unknown or true, so the
        // rule still matches when the other side holds.
        effect = "when it is missing, this part is unknown and \(words.onlyIfOtherSide)"
      } else if readBySet.contains(read.slot) && !readOutsideOr(read.slot, reads[..<inCondition]) {
        // Read by a `set`: the rule decides, and the field has no value to send.
        effect = "when it is missing, the rule still decides and no reply is sent"
      } else {
        effect = "when it is missing \(words.fails)"
      }
      // For `!=` and `not in`, `is not missing and` would keep the rule from requests without
      // the fact, which the comparison reads as meant to match them.
      // Every such comparison of the fact goes inside the parentheses: one left outside stays
      // unknown for a request without it, and the rule still does not match. A `set` that reads
      // the fact would then have no value, and the rule would send nothing.
      let sameFact = reads[..<inCondition].filter { $0.slot == read.slot }
      let exclusions = sameFact.compactMap(\.exclusion)
      let hint =
        read.exclusion != nil && exclusions.count == sameFact.count
          && sameFact.allSatisfy({ !$0.besideOr }) && !readBySet.contains(read.slot)
        ? "to match requests without it too, write (\(name) is missing or "
          + (exclusions.count == 1
            ? policy.source.text(of: exclusions[0])
            : "(" + exclusions.map { policy.source.text(of: $0) }.joined(separator: " and ") + ")")
          + ")"
        : "say what should happen without it, e.g. \(name) is not missing and ..."
      warnings.append(
        warning(
          .unguardedOptionalFact,
          "\(words.subject) reads \(name), which a request may not have; \(effect)",
          at: read.span, hint: hint))
    }
    return warnings
  }

  /// Whether the condition reads `slot` outside any `or`, so a missing value stops the rule.
  private func readOutsideOr(_ slot: Int, _ conditionReads: ArraySlice<Read>) -> Bool {
    conditionReads.contains { $0.slot == slot && !$0.besideOr }
  }

  /// `otherwise`'s `set` actions reading an optional fact: when it is missing, `otherwise` still
  /// decides and no reply is sent. `otherwise` has no condition to guard with, so the hint is a
  /// rule above it.
  private func unguardedReadsInOtherwise() -> [Diagnostic] {
    guard policy.otherwiseSpan != nil else { return [] }
    var reads: [Read] = []
    for case .set(_, let value) in policy.otherwise { collectReads(value, at: nil, into: &reads) }
    var warned: Set<Int> = []
    var warnings: [Diagnostic] = []
    for read in reads where policy.schema.facts[read.slot].isOptional {
      guard warned.insert(read.slot).inserted else { continue }
      let name = policy.schema.facts[read.slot].name
      warnings.append(
        warning(
          .unguardedOptionalFact,
          "'otherwise' reads \(name), which a request may not have; when it is missing, "
            + "'otherwise' still decides and no reply is sent",
          at: read.span,
          hint:
            "decide requests without it in a rule above 'otherwise', e.g. when \(name) is missing then ..."
        ))
    }
    return warnings
  }

  /// Every fact read, with the span to point at: the fact itself, or the `let` it was read through.
  /// `besideOr` and `negated` say where the expression sits: below an `or`, and below a `not`
  /// (which turns an `and` into an `or` and back).
  private func collectReads(
    _ expression: ResolvedExpression, at outer: SourceSpan?, into reads: inout [Read],
    besideOr: Bool = false, negated: Bool = false
  ) {
    switch expression.kind {
    case .fact(let slot):
      reads.append(Read(slot: slot, span: outer ?? expression.span, besideOr: besideOr))
    case .compare(.notEqual, let left, let right) where outer == nil && !negated:
      for side in [left, right] {
        collectReads(side, at: outer, into: &reads, besideOr: besideOr, negated: negated)
        if case .fact = side.kind { reads[reads.count - 1].exclusion = expression.span }
      }
    case .membership(negated: true, let subject, let list) where outer == nil && !negated:
      collectReads(subject, at: outer, into: &reads, besideOr: besideOr, negated: negated)
      if case .fact = subject.kind { reads[reads.count - 1].exclusion = expression.span }
      for item in list {
        collectReads(item, at: outer, into: &reads, besideOr: besideOr, negated: negated)
      }
    case .letReference(let index):
      let summary = lets[index]
      reads += summary.reads.map {
        Read(
          slot: $0, span: outer ?? expression.span,
          besideOr: besideOr || summary.readsBesideOr.contains($0))
      }
    case .missingTest: return
    case .not(let operand):
      collectReads(operand, at: outer, into: &reads, besideOr: besideOr, negated: !negated)
    case .or(let left, let right), .and(let left, let right):
      let isOr = { if case .or = expression.kind { true } else { false } }()
      let beside = besideOr || (isOr != negated)
      collectReads(left, at: outer, into: &reads, besideOr: beside, negated: negated)
      collectReads(right, at: outer, into: &reads, besideOr: beside, negated: negated)
    default:
      for child in expression.children {
        collectReads(child, at: outer, into: &reads, besideOr: besideOr, negated: negated)
      }
    }
  }

  /// The slots every read of which is beside an `or`.
  private static func onlyBesideOr(_ reads: [Read]) -> Set<Int> {
    let outside = Set(reads.filter { !$0.besideOr }.map(\.slot))
    return Set(reads.filter(\.besideOr).map(\.slot)).subtracting(outside)
  }

  private func collectGuards(_ expression: ResolvedExpression, into guarded: inout Set<Int>) {
    if case .missingTest(_, let subject) = expression.kind {
      var reads: [Read] = []
      collectReads(subject, at: nil, into: &reads)
      for read in reads { guarded.insert(read.slot) }
      return
    }
    if case .letReference(let index) = expression.kind { guarded.formUnion(lets[index].guards) }
    for child in expression.children { collectGuards(child, into: &guarded) }
  }

  // MARK: Consent

  /// A rule that answers (not `do not respond`) but matches only when consent is false or
  /// missing: no reply ever goes without consent, so the rule can never send what it says.
  private func answersWithoutConsent(_ rule: CheckedRule, _ conditions: [ResolvedExpression])
    -> Diagnostic?
  {
    guard let name = policy.schema.consentFact, let slot = policy.schema.slot(ofFact: name),
      !rule.actions.contains(.withholdReply),
      conditions.contains(where: { excludesConsent($0, slot: slot) })
    else { return nil }
    return warning(
      .answersWithoutConsent,
      "rule '\(rule.name)' never sends a reply: it matches only when \(name) is not true, and no reply is sent without the customer's consent",
      at: rule.nameSpan,
      hint: "say so with 'then \(policy.schema.vocabulary.withholdReply.text)', or remove the rule")
  }

  /// Whether `condition` holds only when the consent fact is false or missing.
  private func excludesConsent(_ condition: ResolvedExpression, slot: Int) -> Bool {
    let isConsent = { (expression: ResolvedExpression) in
      self.inlined(expression).kind == .fact(slot: slot)
    }
    switch condition.kind {
    case .compare(let op, let left, let right):
      let value: Value?
      if isConsent(left) {
        value = right.constantValue
      } else if isConsent(right) {
        value = left.constantValue
      } else {
        return false
      }
      return (op == .equal && value == .boolean(false))
        || (op == .notEqual && value == .boolean(true))
    case .not(let inner): return isConsent(inner)
    case .missingTest(negated: false, let inner): return isConsent(inner)
    default: return false
    }
  }

  /// Follows `let` references to the expression they name.
  private func inlined(_ expression: ResolvedExpression) -> ResolvedExpression {
    ConditionAtom.inline(expression, policy.lets)
  }

  private func warning(
    _ id: DiagnosticID, _ message: String, at span: SourceSpan, hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(id, .warning, message, at: span, hint: hint)
  }
}
