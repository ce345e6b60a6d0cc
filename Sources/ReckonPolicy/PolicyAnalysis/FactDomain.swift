/// The values a rule's conditions leave possible for one fact: whether it may be missing, and which
/// values it may have when present.
struct FactDomain: Equatable {
  var mayBeMissing = true
  var mayBePresent = true
  /// For enum and boolean facts, the ordinals still possible; nil means all.
  var ordinals: Set<Int>?
  var range = NumericRange()
  /// For numeric facts, the only values still possible (an `in` list), within `range` and not
  /// `excluded`; nil means any.
  var points: Set<Double>?
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
    case .among(let values): points = points.map { $0.intersection(values) } ?? values
    case .other(let values): excluded.formUnion(values)
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
    if let allowed = other.points {
      result.points = points.map { $0.intersection(allowed) } ?? allowed
    }
    result.excluded.formUnion(other.excluded)
    if let currency = other.currency {
      if result.currency == nil { result.currency = currency }
      if result.currency != currency { result.mixedCurrencies = true }
    }
    result.mixedCurrencies = result.mixedCurrencies || other.mixedCurrencies
    return result
  }

  /// The values of an `in` list that the range and exclusions still allow; nil for any.
  private var possiblePoints: Set<Double>? {
    points?.filter { range.contains($0) && !excluded.contains($0) }
  }

  /// The one value a numeric fact may have when its range is a single number.
  private var onlyValue: Double? {
    guard range.lower == range.upper, !range.isEmpty, !excluded.contains(range.lower) else {
      return nil
    }
    return range.lower
  }

  /// Whether no value (present or missing) satisfies every condition.
  var isEmpty: Bool {
    let noPresentValue =
      !mayBePresent || ordinals?.isEmpty == true || range.isEmpty || mixedCurrencies
      || (range.lower == range.upper && excluded.contains(range.lower))
      || possiblePoints?.isEmpty == true
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
    case .within(let bounds):
      return !mayBeMissing
        && (range.isSubset(of: bounds) || possiblePoints?.allSatisfy(bounds.contains) == true)
    case .among(let allowed):
      guard !mayBeMissing else { return false }
      if let possible = possiblePoints { return possible.isSubset(of: allowed) }
      return onlyValue.map(allowed.contains) ?? false
    case .other(let values):
      return !mayBeMissing
        && values.allSatisfy { value in
          !range.contains(value) || excluded.contains(value)
            || possiblePoints?.contains(value) == false
        }
    }
  }
}
