/// The values a rule's conditions leave possible for one fact: whether it may be missing, and which
/// values it may have when present.
struct FactDomain: Equatable {
  var mayBeMissing = true
  var mayBePresent = true
  /// For enum and boolean facts, the ordinals still possible; nil means all.
  var ordinals: Set<Int>?
  var range = NumericRange()
  var excluded: Set<Double> = []
  /// For a money fact, the currency its conditions compare it in, if any; a price has one
  /// currency, so conditions in two currencies cannot all hold.
  var currency: String?
  var mixedCurrencies = false

  /// The domain of a fact before any condition; a percent fact is 0% to 100%.
  init(type: ValueType) {
    if type == .percent { range = NumericRange(lower: 0, upper: 100) }
  }

  mutating func apply(_ restriction: ConditionAtom.Restriction, currency: String? = nil) {
    if let currency {
      if self.currency == nil { self.currency = currency }
      if self.currency != currency { mixedCurrencies = true }
    }
    switch restriction {
    case .missing:
      mayBePresent = false
      return
    case .present: break
    case .oneOf(let allowed): ordinals = ordinals.map { $0.intersection(allowed) } ?? allowed
    case .within(let bounds): range = range.intersected(with: bounds)
    case .other(let value): excluded.insert(value)
    }
    mayBeMissing = false  // any comparison holds only for a present value
  }

  /// The values both domains allow.
  func intersected(with other: FactDomain) -> FactDomain {
    var result = self
    result.mayBeMissing = mayBeMissing && other.mayBeMissing
    result.mayBePresent = mayBePresent && other.mayBePresent
    if let allowed = other.ordinals {
      result.ordinals = ordinals.map { $0.intersection(allowed) } ?? allowed
    }
    result.range = range.intersected(with: other.range)
    result.excluded.formUnion(other.excluded)
    if let currency = other.currency {
      if result.currency == nil { result.currency = currency }
      if result.currency != currency { result.mixedCurrencies = true }
    }
    result.mixedCurrencies = result.mixedCurrencies || other.mixedCurrencies
    return result
  }

  /// Whether no value (present or missing) satisfies every condition.
  var isEmpty: Bool {
    let noPresentValue =
      !mayBePresent || ordinals?.isEmpty == true || range.isEmpty || mixedCurrencies
      || (range.lower == range.upper && excluded.contains(range.lower))
    return noPresentValue && !mayBeMissing
  }

  /// Whether every value this domain allows satisfies `restriction`.
  func implies(_ restriction: ConditionAtom.Restriction, caseCount: Int?, currency: String? = nil)
    -> Bool
  {
    if isEmpty { return true }
    // A range of amounts in one currency says nothing about amounts in another.
    if let currency, self.currency != currency { return false }
    switch restriction {
    case .missing: return !mayBePresent
    case .present: return !mayBeMissing
    case .oneOf(let allowed):
      guard !mayBeMissing else { return false }
      let possible = ordinals ?? Set(0..<(caseCount ?? 0))
      return caseCount != nil && possible.isSubset(of: allowed)
    case .within(let bounds): return !mayBeMissing && range.isSubset(of: bounds)
    case .other(let value):
      return !mayBeMissing && (!range.contains(value) || excluded.contains(value))
    }
  }
}
