/// The deeper checks of `reckon check`, over each rule's `and` chain reduced to restrictions on single
/// facts: a rule whose conditions contradict each other, a rule every case of which an earlier rule
/// already decides, a refund for a product type earlier rules have taken out of play, and a
/// condition on a percent fact that is the same for every value from 0% to 100%; then the rules
/// whose body the store refuses for some requests (`NoReplyCheck`). All are warnings.
struct PolicyAnalysis {
  let policy: CheckedPolicy
  /// The parts of each boolean `let`'s `and` chain, computed once in order, so lets built from
  /// lets stay linear instead of doubling at every level.
  private let letConjuncts: [[ResolvedExpression]]

  init(policy: CheckedPolicy) {
    self.policy = policy
    var table: [[ResolvedExpression]] = []
    for checked in policy.lets {
      table.append(Self.conjuncts(of: checked.value, policy: policy, letConjuncts: table))
    }
    self.letConjuncts = table
  }

  /// A class: later rules are compared with earlier ones, and a struct of these arrays and sets
  /// would be copied, every part retained and released, per comparison.
  private final class RuleFacts {
    let rule: CheckedRule
    let conjuncts: [ResolvedExpression]
    let atoms: [ConditionAtom]
    let domains: [Int: FactDomain]
    /// Each conjunct's shape and atom, worked out once: every later rule is compared with this
    /// one, and rebuilding them per comparison made a policy of many rules quadratic in string
    /// building (1,000 rules took seconds).
    let shapes: [ResolvedExpression.Shape]
    let shapeSet: Set<ResolvedExpression.Shape>
    let conjunctAtoms: [ConditionAtom?]

    init(
      rule: CheckedRule, conjuncts: [ResolvedExpression], atoms: [ConditionAtom],
      domains: [Int: FactDomain], shapes: [ResolvedExpression.Shape],
      shapeSet: Set<ResolvedExpression.Shape>, conjunctAtoms: [ConditionAtom?]
    ) {
      self.rule = rule
      self.conjuncts = conjuncts
      self.atoms = atoms
      self.domains = domains
      self.shapes = shapes
      self.shapeSet = shapeSet
      self.conjunctAtoms = conjunctAtoms
    }
  }

  func warnings() -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    var earlier: [RuleFacts] = []
    // An earlier rule covers a later one only if its first part that can rule a request out is
    // among the later one's parts, or restricts a fact the later one restricts: earlier rules by
    // that part, so each rule is compared with the rules that can overlap it.
    var byKey: [String: [Int]] = [:]
    var anyRule: [Int] = []
    var excludedTypes: [(rule: CheckedRule, ordinals: Set<Int>)] = []
    var typeDomains: [FactDomain?] = []
    for rule in policy.rules {
      let conjuncts = conjuncts(of: rule.condition)
      let conjunctAtoms = conjuncts.map { ConditionAtom.from($0, lets: policy.lets) }
      let atoms = conjunctAtoms.compactMap { $0 }
      let percentWarnings = atoms.compactMap { percentBound($0, in: "rule '\(rule.name)'") }
      warnings += percentWarnings
      let shapes = conjuncts.map(\.shape)
      let facts = RuleFacts(
        rule: rule, conjuncts: conjuncts, atoms: atoms, domains: domains(of: atoms),
        shapes: shapes, shapeSet: Set(shapes), conjunctAtoms: conjunctAtoms)
      typeDomains.append(typeSlot.flatMap { facts.domains[$0] })
      if let contradiction = contradiction(
        "rule '\(rule.name)'", atoms: facts.atoms, domains: facts.domains, removal: "the rule")
      {
        if percentWarnings.isEmpty { warnings.append(contradiction) }
        continue
      }
      let keys = facts.shapes.map { "s:" + $0.description } + facts.domains.keys.map { "f:\($0)" }
      let candidates = Set(keys.flatMap { byKey[$0] ?? [] } + anyRule).sorted()
      if let found = candidates.first(where: { covers(earlier[$0], facts) }) {
        warnings.append(covered(facts.rule, by: earlier[found].rule))
      } else if let warning = excludedRefund(facts, excludedTypes) {
        warnings.append(warning)
      }
      // Only a rule whose whole condition is the product type decides every request of those
      // types: a part the analysis cannot read (arithmetic, `starts with`, `or`) narrows the rule,
      // so dropping it would overstate what the rule takes out of play.
      if let typeSlot, conjunctAtoms.count == 1, atoms.count == 1, atoms[0].slot == typeSlot,
        case .oneOf(let types) = atoms[0].restriction
      {
        excludedTypes.append((rule, types))
      }
      if let key = coverKey(facts) {
        byKey[key, default: []].append(earlier.count)
      } else {
        anyRule.append(earlier.count)
      }
      earlier.append(facts)
    }
    return warnings + holdContradictions()
      + (NoReplyCheck(policy: policy, categoryDomains: typeDomains)?.warnings() ?? [])
  }

  // MARK: Never matches

  /// A hold whose conditions contradict each other, or whose condition is always false, never
  /// holds a decision, as such a rule never decides one; a percentage bound that never changes
  /// is named as in a rule.
  private func holdContradictions() -> [Diagnostic] {
    policy.holds.flatMap { hold -> [Diagnostic] in
      let clause = "hold '\(hold.name)'"
      if hold.condition.constantValue == .boolean(false) {
        return [
          warning(
            .neverMatches, "\(clause) can never match: its condition is always false",
            at: hold.condition.span)
        ]
      }
      let atoms = conjuncts(of: hold.condition).compactMap {
        ConditionAtom.from($0, lets: policy.lets)
      }
      let percentWarnings = atoms.compactMap { percentBound($0, in: clause) }
      if !percentWarnings.isEmpty { return percentWarnings }
      return [
        contradiction(clause, atoms: atoms, domains: domains(of: atoms), removal: "the hold")
      ].compactMap { $0 }
    }
  }

  private func contradiction(
    _ clause: String, atoms: [ConditionAtom], domains: [Int: FactDomain], removal: String
  ) -> Diagnostic? {
    for (slot, domain) in domains.sorted(by: { $0.key < $1.key }) where domain.isEmpty {
      let involved = atoms.filter { $0.slot == slot }
      guard involved.count >= 2 else {
        // One condition alone allows no value: `reason in []`, `purchase.quantity in []`.
        guard let atom = involved.first else { return nil }
        return warning(
          .neverMatches,
          "\(clause) can never match: '\(policy.source.text(of: atom.span))' is never true",
          at: atom.span,
          hint: "it allows no value the fact can have; fix it, or remove \(removal)")
      }
      let texts = involved.map { "'\(policy.source.text(of: $0.span))'" }
      let span = involved[0].span.merged(with: involved[involved.count - 1].span)
      return warning(
        .neverMatches,
        "\(clause) can never match: \(texts.joined(separator: " and ")) cannot all hold at once",
        at: span,
        hint: "one of these conditions is not what was meant; fix it, or remove \(removal)")
    }
    return nil
  }

  // MARK: Covered by an earlier rule

  /// What a later rule must have for `facts` to cover it: its first part that can rule a request
  /// out, as `s:SHAPE` (a part the analysis cannot read, which the later rule must share) or
  /// `f:SLOT` (a restriction of a fact, which the later rule must restrict too); nil when no part
  /// can rule a request out.
  private func coverKey(_ facts: RuleFacts) -> String? {
    for (index, shape) in facts.shapes.enumerated() {
      guard let atom = facts.conjunctAtoms[index] else { return "s:" + shape.description }
      let whole = FactDomain(type: policy.schema.facts[atom.slot].type)
      if whole.implies(atom.restriction, caseCount: caseCount(atom.slot), currency: atom.currency) {
        continue
      }
      return "f:\(atom.slot)"
    }
    return nil
  }

  /// Whether every request `later` matches is matched by `earlier` too.
  private func covers(_ earlier: RuleFacts, _ later: RuleFacts) -> Bool {
    guard !earlier.conjuncts.isEmpty, earlier.domains.values.allSatisfy({ !$0.isEmpty }) else {
      return false
    }
    return earlier.shapes.indices.allSatisfy { index in
      if later.shapeSet.contains(earlier.shapes[index]) { return true }
      guard let atom = earlier.conjunctAtoms[index] else { return false }
      let domain = later.domains[atom.slot] ?? FactDomain(type: policy.schema.facts[atom.slot].type)
      return domain.implies(
        atom.restriction, caseCount: caseCount(atom.slot), currency: atom.currency)
    }
  }

  private func covered(_ rule: CheckedRule, by earlier: CheckedRule) -> Diagnostic {
    warning(
      .shadowedRule,
      "rule '\(rule.name)' never decides: every request it matches is already matched by rule '\(earlier.name)' above it",
      at: rule.nameSpan,
      hint: "move it above '\(earlier.name)' if it is the more specific rule, or remove it")
  }

  // MARK: Refund for an excluded product type

  private var typeSlot: Int? {
    policy.schema.boundedChoice.flatMap { policy.schema.slot(ofFact: $0.categoryFact) }
  }

  private func excludedRefund(
    _ facts: RuleFacts, _ excluded: [(rule: CheckedRule, ordinals: Set<Int>)]
  ) -> Diagnostic? {
    guard let typeSlot, !excluded.isEmpty, let count = caseCount(typeSlot),
      facts.rule.actions.contains(where: { if case .choose = $0 { true } else { false } })
    else { return nil }
    let domain = facts.domains[typeSlot]
    let possible =
      domain?.mayBeMissing == false ? (domain?.ordinals ?? Set(0..<count)) : Set(0..<count)
    let taken = excluded.reduce(into: Set<Int>()) { $0.formUnion($1.ordinals) }
    guard !possible.isEmpty, possible.isSubset(of: taken),
      case .enumeration(let type) = policy.schema.facts[typeSlot].type
    else {
      return nil
    }
    let names = possible.sorted().map { type.cases[$0] }.joined(separator: ", ")
    let deciding = excluded.filter { !$0.ordinals.isDisjoint(with: possible) }.map {
      "'\($0.rule.name)'"
    }
    let rules = (deciding.count == 1 ? "rule " : "rules ") + deciding.joined(separator: " and ")
    let fact = policy.schema.facts[typeSlot].name
    let words = policy.schema.vocabulary
    return warning(
      .refundForExcludedProduct,
      "rule '\(facts.rule.name)' \(words.choose.doing) only \(fact) \(names), but \(rules) above already \(deciding.count == 1 ? "decides" : "decide") "
        + "every such request",
      at: facts.rule.nameSpan,
      hint:
        "this \(words.choose.text) is never asked for; move the rule above \(rules) or remove it")
  }

  // MARK: Percent conditions that never change

  /// A bound on a percentage fact that every value or none meets, in `clause` (`rule 'NAME'`).
  private func percentBound(_ atom: ConditionAtom, in clause: String) -> Diagnostic? {
    guard policy.schema.facts[atom.slot].type == .percent,
      case .within(let bounds) = atom.restriction
    else { return nil }
    let whole = NumericRange(lower: 0, upper: 100)
    let name = policy.schema.facts[atom.slot].name
    let text = policy.source.text(of: atom.span)
    if whole.intersected(with: bounds).isEmpty {
      return warning(
        .constantPercentCondition, "'\(text)' is never true: \(name) is always between 0% and 100%",
        at: atom.span,
        hint: "\(clause) can never match; check the bound")
    }
    if whole.isSubset(of: bounds) {
      return warning(
        .constantPercentCondition,
        "'\(text)' is always true when \(name) is known: it is always between 0% and 100%",
        at: atom.span, hint: "remove it, or write the bound that was meant, e.g. > 0%")
    }
    return nil
  }

  // MARK: Helpers

  private func domains(of atoms: [ConditionAtom]) -> [Int: FactDomain] {
    var domains: [Int: FactDomain] = [:]
    for atom in atoms {
      domains[atom.slot, default: FactDomain(type: policy.schema.facts[atom.slot].type)].apply(
        atom.restriction, currency: atom.currency)
    }
    return domains
  }

  private func caseCount(_ slot: Int) -> Int? {
    switch policy.schema.facts[slot].type {
    case .enumeration(let type): type.cases.count
    case .boolean: 2
    default: nil
    }
  }

  private func conjuncts(of expression: ResolvedExpression) -> [ResolvedExpression] {
    Self.conjuncts(of: expression, policy: policy, letConjuncts: letConjuncts)
  }

  /// The distinct parts of an `and` chain, looking through boolean `let`s that are chains.
  /// Parts are told apart by shape, not by node: in `let xN = x(N-1) and customer.consented` each
  /// let's `customer.consented` is a new node, and keeping them all made N lets cost N² parts.
  private static func conjuncts(
    of expression: ResolvedExpression, policy: CheckedPolicy, letConjuncts: [[ResolvedExpression]]
  ) -> [ResolvedExpression] {
    var seen: Set<ResolvedExpression.Shape> = []
    var parts: [ResolvedExpression] = []
    func collect(_ node: ResolvedExpression) {
      switch node.kind {
      case .and(let left, let right):
        collect(left)
        collect(right)
      case .letReference(let index)
      where policy.lets[index].value.type == .boolean && letConjuncts.indices.contains(index)
        && { if case .and = policy.lets[index].value.kind { true } else { false } }():
        for part in letConjuncts[index] where seen.insert(part.shape).inserted {
          parts.append(part)
        }
      case .constant(.boolean(true)):
        break
      default:
        if seen.insert(node.shape).inserted { parts.append(node) }
      }
    }
    collect(expression)
    return parts
  }

  private func warning(
    _ id: DiagnosticID, _ message: String, at span: SourceSpan, hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(id, .warning, message, at: span, hint: hint)
  }
}
