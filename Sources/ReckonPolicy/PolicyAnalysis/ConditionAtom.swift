/// One part of a rule's `and` chain that restricts a single fact: `product.type == CONSUMABLE`,
/// `usage.consumed >= 80%`, `customer.override is not missing`. The analysis reasons over these.
struct ConditionAtom {
  enum Restriction: Equatable {
    /// `is missing`.
    case missing
    /// `is not missing`.
    case present
    /// An enum or boolean fact whose value is one of these ordinals (false 0, true 1).
    case oneOf(Set<Int>)
    /// A numeric fact inside this range.
    case within(NumericRange)
    /// A numeric fact equal to one of these values (`usage.consumed in [0%, 50%]`).
    case among(Set<Double>)
    /// A numeric fact other than each of these values (`!=`, `not in`).
    case other(than: Set<Double>)
  }

  let slot: Int
  let restriction: Restriction
  let span: SourceSpan
  /// For a money fact, the currency the range is in: amounts in different currencies are not
  /// comparable, so a range says nothing about a price in another currency.
  var currency: String? = nil

  /// The atom a condition is, if it is one; `let`s are looked through.
  static func from(_ condition: ResolvedExpression, lets: [CheckedLet]) -> ConditionAtom? {
    let inlined = inline(condition, lets)
    let span = condition.span
    switch inlined.kind {
    case .fact(let slot) where inlined.type == .boolean:
      return ConditionAtom(slot: slot, restriction: .oneOf([1]), span: span)
    case .not(let operand):
      guard case .fact(let slot) = inline(operand, lets).kind, operand.type == .boolean else {
        return nil
      }
      return ConditionAtom(slot: slot, restriction: .oneOf([0]), span: span)
    case .missingTest(let negated, let subject):
      guard case .fact(let slot) = inline(subject, lets).kind else { return nil }
      return ConditionAtom(slot: slot, restriction: negated ? .present : .missing, span: span)
    case .membership(let negated, let subject, let members):
      guard case .fact(let slot) = inline(subject, lets).kind else { return nil }
      guard let count = caseCount(subject.type) else {
        return numericMembership(negated, slot, inline(subject, lets), members, span)
      }
      let ordinals = members.compactMap { ordinal($0.constantValue) }
      guard ordinals.count == members.count else { return nil }
      let chosen = Set(ordinals)
      return ConditionAtom(
        slot: slot, restriction: .oneOf(negated ? Set(0..<count).subtracting(chosen) : chosen),
        span: span)
    case .compare(let op, let left, let right):
      return comparison(op, inline(left, lets), inline(right, lets), span)
    default:
      return nil
    }
  }

  /// A numeric fact's `in` list (`usage.consumed in [0%, 50%]`) as the values it allows, or
  /// those `not in` rules out; nil when a member is not a constant of the fact's kind, or the
  /// members' amounts are in different currencies.
  private static func numericMembership(
    _ negated: Bool, _ slot: Int, _ subject: ResolvedExpression, _ members: [ResolvedExpression],
    _ span: SourceSpan
  ) -> ConditionAtom? {
    var values: Set<Double> = []
    var currencies: Set<String> = []
    for member in members {
      guard let point = comparison(.equal, subject, member, span),
        case .within(let range) = point.restriction, range.lower == range.upper
      else { return nil }
      values.insert(range.lower)
      if let currency = point.currency { currencies.insert(currency) }
    }
    guard currencies.count <= 1 else { return nil }
    return ConditionAtom(
      slot: slot, restriction: negated ? .other(than: values) : .among(values), span: span,
      currency: currencies.first)
  }

  private static func comparison(
    _ op: ComparisonOperator, _ left: ResolvedExpression, _ right: ResolvedExpression,
    _ span: SourceSpan
  )
    -> ConditionAtom?
  {
    if case .fact = right.kind, left.constantValue != nil, let flipped = op.flipped {
      return comparison(flipped, right, left, span)
    }
    guard case .fact(let slot) = left.kind, let constant = right.constantValue else { return nil }
    if let count = caseCount(left.type), let value = ordinal(constant) {
      switch op {
      case .equal: return ConditionAtom(slot: slot, restriction: .oneOf([value]), span: span)
      case .notEqual:
        return ConditionAtom(
          slot: slot, restriction: .oneOf(Set(0..<count).subtracting([value])), span: span)
      default: return nil
      }
    }
    guard let number = numeric(constant) else { return nil }
    var currency: String?
    if case .money(_, let code) = constant { currency = code }
    let restriction: Restriction
    switch op {
    case .equal: restriction = .within(NumericRange(lower: number, upper: number))
    case .notEqual: restriction = .other(than: [number])
    case .less: restriction = .within(NumericRange(upper: number, upperOpen: true))
    case .lessOrEqual: restriction = .within(NumericRange(upper: number))
    case .greater: restriction = .within(NumericRange(lower: number, lowerOpen: true))
    case .greaterOrEqual: restriction = .within(NumericRange(lower: number))
    default: return nil
    }
    return ConditionAtom(slot: slot, restriction: restriction, span: span, currency: currency)
  }

  static func inline(_ expression: ResolvedExpression, _ lets: [CheckedLet]) -> ResolvedExpression {
    var expression = expression
    // A loop, not recursion: a chain of plain aliases can be as long as the let depth limit.
    while case .letReference(let index) = expression.kind, lets.indices.contains(index) {
      expression = lets[index].value
    }
    return expression
  }

  private static func caseCount(_ type: ValueType) -> Int? {
    switch type {
    case .enumeration(let enumType): enumType.cases.count
    case .boolean: 2
    default: nil
    }
  }

  private static func ordinal(_ value: Value?) -> Int? {
    switch value {
    case .enumeration(let ordinal)?: ordinal
    case .boolean(let flag)?: flag ? 1 : 0
    default: nil
    }
  }

  /// A constant as the evaluator compares it: numbers, percents and durations as decimals of 15
  /// significant digits (so `33.3% * 3` is 99.9%, as `usage.consumed >= 33.3% * 3` holds at
  /// 99.9%), money exactly.
  private static func numeric(_ value: Value) -> Double? {
    switch value {
    case .number(let number), .percent(let number), .duration(let number):
      ValueOperations.decimal(number)
    case .money(let milli, _): Double(milli)
    default: nil
    }
  }
}

/// An interval of numbers, each end open or closed, possibly unbounded.
struct NumericRange: Equatable {
  var lower = -Double.infinity
  var lowerOpen = false
  var upper = Double.infinity
  var upperOpen = false

  var isEmpty: Bool { lower > upper || (lower == upper && (lowerOpen || upperOpen)) }

  func intersected(with other: NumericRange) -> NumericRange {
    var result = self
    if other.lower > lower || (other.lower == lower && other.lowerOpen) {
      (result.lower, result.lowerOpen) = (other.lower, other.lowerOpen)
    }
    if other.upper < upper || (other.upper == upper && other.upperOpen) {
      (result.upper, result.upperOpen) = (other.upper, other.upperOpen)
    }
    return result
  }

  /// Whether every number in `self` is in `other`.
  func isSubset(of other: NumericRange) -> Bool {
    if isEmpty { return true }
    let lowerInside =
      lower > other.lower || (lower == other.lower && (lowerOpen || !other.lowerOpen))
    let upperInside =
      upper < other.upper || (upper == other.upper && (upperOpen || !other.upperOpen))
    return lowerInside && upperInside
  }

  func contains(_ value: Double) -> Bool {
    !intersected(with: NumericRange(lower: value, upper: value)).isEmpty
  }
}

extension ComparisonOperator {
  /// The operator with its operands swapped: `3 < x` is `x > 3`.
  var flipped: ComparisonOperator? {
    switch self {
    case .equal, .notEqual: self
    case .less: .greater
    case .lessOrEqual: .greaterOrEqual
    case .greater: .less
    case .greaterOrEqual: .lessOrEqual
    default: nil
    }
  }
}
