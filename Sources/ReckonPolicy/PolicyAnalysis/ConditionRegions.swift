/// Where a condition is true, false, not true and not false, as request regions, under the
/// language's three-valued logic: a comparison that reads a missing fact is unknown, which is
/// neither true nor false.
///
/// Each region is an under-approximation (see `RequestRegion`), so anything shown to hold in one
/// holds for real. Parts restricting one fact by a constant (`ConditionAtom`) are read exactly, and
/// `and`, `or`, `not` and boolean lets combine them. A part it cannot read (arithmetic, text tests,
/// two facts compared) is taken as free to be true or false, by its shape, unless it reads one of
/// the `pinned` facts: then it is taken as unknowable, and nothing is shown through it.
struct ConditionRegions {
  /// The four regions of one condition.
  struct Regions {
    var whenTrue: RequestRegion
    var whenFalse: RequestRegion
    /// False or unknown: where a rule with this condition does not match.
    var whenNotTrue: RequestRegion
    /// True or unknown.
    var whenNotFalse: RequestRegion

    var negated: Regions {
      Regions(
        whenTrue: whenFalse, whenFalse: whenTrue, whenNotTrue: whenNotFalse,
        whenNotFalse: whenNotTrue)
    }

    static let unknowable = Regions(
      whenTrue: .nothing, whenFalse: .nothing, whenNotTrue: .nothing, whenNotFalse: .nothing)
  }

  /// How many pairs of boxes the analysis compares before it gives up on a policy (and stays
  /// silent), so a policy of thousands of rules and lets is still checked in well under a second.
  static let workLimit = 3_000_000

  let policy: CheckedPolicy
  let pinned: Set<Int>
  /// Pairs of boxes compared so far; past `workLimit` every region is empty.
  var work = 0
  /// The regions of each boolean let, kept until its last use.
  private var letRegions: [Int: Regions] = [:]
  private var usesLeft: [Int]
  /// Whether each let reads a pinned fact, directly or through other lets.
  private var letReadsPinned: [Bool] = []

  init(policy: CheckedPolicy, pinned: Set<Int>) {
    self.policy = policy
    self.pinned = pinned
    usesLeft = Array(repeating: 0, count: policy.lets.count)
    for checked in policy.lets {
      letReadsPinned.append(readsPinned(checked.value))
      if checked.value.type == .boolean { countUses(checked.value) }
    }
    for rule in policy.rules { countUses(rule.condition) }
    // In order, so a let's lets are worked out before it: a long chain of lets never recurses.
    for (index, checked) in policy.lets.enumerated() where checked.value.type == .boolean {
      letRegions[index] = regions(of: checked.value)
    }
  }

  var isExhausted: Bool { work > Self.workLimit }

  /// The regions of `condition`, a rule's condition or a boolean let's value. Call it once per
  /// rule, in order: a let's regions are dropped after the last use this type counted.
  mutating func regions(of condition: ResolvedExpression) -> Regions {
    guard !isExhausted else { return .unknowable }
    switch condition.kind {
    case .constant(.boolean(let value)):
      let everything = Regions(
        whenTrue: .everything, whenFalse: .nothing, whenNotTrue: .nothing,
        whenNotFalse: .everything)
      return value ? everything : everything.negated
    case .and(let left, let right):
      let (a, b) = (regions(of: left), regions(of: right))
      return Regions(
        whenTrue: a.whenTrue.intersected(with: b.whenTrue, work: &work),
        whenFalse: a.whenFalse.union(b.whenFalse),
        whenNotTrue: a.whenNotTrue.union(b.whenNotTrue),
        whenNotFalse: a.whenNotFalse.intersected(with: b.whenNotFalse, work: &work))
    case .or(let left, let right):
      let (a, b) = (regions(of: left), regions(of: right))
      return Regions(
        whenTrue: a.whenTrue.union(b.whenTrue),
        whenFalse: a.whenFalse.intersected(with: b.whenFalse, work: &work),
        whenNotTrue: a.whenNotTrue.intersected(with: b.whenNotTrue, work: &work),
        whenNotFalse: a.whenNotFalse.union(b.whenNotFalse))
    case .not(let operand):
      return regions(of: operand).negated
    case .letReference(let index) where policy.lets[index].value.type == .boolean:
      let found = letRegions[index] ?? .unknowable
      usesLeft[index] -= 1
      if usesLeft[index] <= 0 { letRegions[index] = nil }
      return found
    default:
      if let atom = ConditionAtom.from(condition, lets: policy.lets) { return regions(of: atom) }
      guard !readsPinned(condition) else { return .unknowable }
      let shape = condition.shape
      let whenTrue = RequestRegion(unread: shape, is: true)
      let whenFalse = RequestRegion(unread: shape, is: false)
      return Regions(
        whenTrue: whenTrue, whenFalse: whenFalse, whenNotTrue: whenFalse, whenNotFalse: whenTrue)
    }
  }

  /// An atom is read exactly: true where its restriction holds, false where the fact has another
  /// value, unknown where the fact is missing (except for `is missing` itself).
  private func regions(of atom: ConditionAtom) -> Regions {
    let fresh = FactDomain(type: policy.schema.facts[atom.slot].type)
    var holds = fresh
    holds.apply(atom.restriction, currency: atom.currency)
    let whenTrue = RequestRegion(slot: atom.slot, domain: holds)
    var whenFalse = RequestRegion.nothing
    for restriction in complement(of: atom) {
      var other = fresh
      other.apply(restriction, currency: atom.currency)
      whenFalse = whenFalse.union(RequestRegion(slot: atom.slot, domain: other))
    }
    switch atom.restriction {
    case .missing, .present:
      return Regions(
        whenTrue: whenTrue, whenFalse: whenFalse, whenNotTrue: whenFalse, whenNotFalse: whenTrue)
    default:
      var missing = fresh
      missing.apply(.missing)
      let unknown = RequestRegion(slot: atom.slot, domain: missing)
      return Regions(
        whenTrue: whenTrue, whenFalse: whenFalse, whenNotTrue: whenFalse.union(unknown),
        whenNotFalse: whenTrue.union(unknown))
    }
  }

  /// The restrictions that together make up the other values of the atom's fact.
  private func complement(of atom: ConditionAtom) -> [ConditionAtom.Restriction] {
    switch atom.restriction {
    case .missing: return [.present]
    case .present: return [.missing]
    case .oneOf(let allowed):
      let count: Int
      switch policy.schema.facts[atom.slot].type {
      case .enumeration(let type): count = type.cases.count
      case .boolean: count = 2
      default: return []
      }
      return [.oneOf(Set(0..<count).subtracting(allowed))]
    case .within(let range):
      var parts: [ConditionAtom.Restriction] = []
      if range.lower > -.infinity {
        parts.append(.within(NumericRange(upper: range.lower, upperOpen: !range.lowerOpen)))
      }
      if range.upper < .infinity {
        parts.append(.within(NumericRange(lower: range.upper, lowerOpen: !range.upperOpen)))
      }
      return parts
    case .among(let values):
      return [.other(than: values)]
    case .other(let values):
      return values.isEmpty ? [] : [.among(values)]
    }
  }

  /// Counts the let lookups `regions(of:)` will make for `condition`, walking it the same way.
  private mutating func countUses(_ condition: ResolvedExpression) {
    switch condition.kind {
    case .and(let left, let right), .or(let left, let right):
      countUses(left)
      countUses(right)
    case .not(let operand):
      countUses(operand)
    case .letReference(let index) where policy.lets[index].value.type == .boolean:
      usesLeft[index] += 1
    default:
      break
    }
  }

  /// Whether `expression` reads a pinned fact, directly or through lets already summarised.
  private func readsPinned(_ expression: ResolvedExpression) -> Bool {
    switch expression.kind {
    case .fact(let slot): return pinned.contains(slot)
    case .letReference(let index):
      return letReadsPinned.indices.contains(index) && letReadsPinned[index]
    default: return expression.children.contains(where: readsPinned)
    }
  }
}
