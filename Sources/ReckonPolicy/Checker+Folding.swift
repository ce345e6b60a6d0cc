/// Constant folding: a node whose operands are all known is replaced by its value, so the
/// evaluator never recomputes it and the lints see constant conditions.
extension Checker {
  /// Replaces a node whose operands are all constants by its value.
  mutating func fold(_ expression: ResolvedExpression) -> ResolvedExpression {
    let folded: Value?
    switch expression.kind {
    case .negate(let operand):
      folded = operand.constantValue.flatMap(ValueOperations.negate)
    case .not(let operand):
      folded = operand.constantValue.map { .boolean($0 != .boolean(true)) }
    case .and(let left, let right):
      folded = foldLogic(left.constantValue, right.constantValue, decisive: false)
    case .or(let left, let right):
      folded = foldLogic(left.constantValue, right.constantValue, decisive: true)
    case .arithmetic(let op, let left, let right):
      guard let a = left.constantValue, let b = right.constantValue else { return expression }
      folded = ValueOperations.arithmetic(op, a, b)
    case .compare(let op, let left, let right):
      guard let a = left.constantValue, let b = right.constantValue else { return expression }
      folded = ValueOperations.compare(op, a, b, rates: schema.currencyRates).map(Value.boolean)
    case .membership(let negated, let subject, let members):
      guard let a = subject.constantValue else { return expression }
      let constants = members.compactMap(\.constantValue)
      guard constants.count == members.count else { return expression }
      folded = ValueOperations.isMember(a, of: constants).map { .boolean($0 != negated) }
    case .call(let builtin, let arguments):
      let constants = arguments.compactMap(\.constantValue)
      guard constants.count == arguments.count else { return expression }
      folded = ValueOperations.call(builtin, constants)
    default:
      return expression
    }
    guard let folded else { return expression }
    return ResolvedExpression(
      kind: .constant(folded), type: expression.type, span: expression.span, id: expression.id)
  }

  /// Reports a percent worked out from constants (`50% + 60%`, `-5%`) that is outside 0% to 100%,
  /// as a literal outside it is, where it meets shares: compared with, listed against or passed
  /// with values that are shares themselves (facts, lets of them, other constants). Beside a
  /// difference or other arithmetic (`usage.consumed - 50% > -10%`) a negative or large constant
  /// is sound arithmetic, and values computed from facts are only known at run time.
  mutating func checkPercentRanges(_ operands: [ResolvedExpression]) {
    guard operands.allSatisfy(standsForAShare) else { return }
    for operand in operands { checkPercentRange(operand) }
  }

  /// `checkPercentRanges` for `value in [members]`, pair by pair, the value reported once.
  mutating func checkPercentRangesOfMembers(
    _ value: ResolvedExpression, _ members: [ResolvedExpression]
  ) {
    guard standsForAShare(value) else { return }
    let shares = members.filter(standsForAShare)
    for member in shares { checkPercentRange(member) }
    if !shares.isEmpty { checkPercentRange(value) }
  }

  /// Whether `expression` gives a share rather than the result of arithmetic on shares.
  private func standsForAShare(_ expression: ResolvedExpression) -> Bool {
    switch expression.kind {
    case .arithmetic, .negate: false
    case .letReference(let index): standsForAShare(lets[index].value)
    case .call(_, let arguments): arguments.allSatisfy(standsForAShare)
    default: true
    }
  }

  private mutating func checkPercentRange(_ operand: ResolvedExpression) {
    guard case .percent(let percent) = operand.constantValue, !(0...100).contains(percent)
    else { return }
    report(
      .percentOutOfRange,
      "a percentage is between 0% and 100%, but this comes to "
        + Value.percent(percent).formatted(as: .percent), at: operand.span)
  }

  /// `and` folds when either side is false (`decisive` false), `or` when either is true.
  private func foldLogic(_ left: Value?, _ right: Value?, decisive: Bool) -> Value? {
    if left == .boolean(decisive) || right == .boolean(decisive) { return .boolean(decisive) }
    if let left, let right, left == right { return left }
    return nil
  }
}

extension ValueOperations {
  static func isZero(_ value: Value) -> Bool {
    switch value {
    case .number(let n), .percent(let n), .duration(let n): n == 0
    case .money(let milli, _): milli == 0
    default: false
    }
  }
}
