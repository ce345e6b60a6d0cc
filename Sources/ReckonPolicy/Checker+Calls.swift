/// Checking of `in` lists and built-in calls, and of amounts that mix currencies.
extension Checker {
  /// `subject in [elements]`; for a named list, `named` is the name where it is used, where a
  /// list of the wrong kind is reported once (the items may be right, and the use wrong).
  mutating func checkMembership(
    _ negated: Bool, _ subject: Expression, _ elements: [Expression], _ span: SourceSpan,
    named: Located<String>? = nil
  ) -> ResolvedExpression? {
    guard let value = checkExpression(subject, expected: nil) else {
      return nil
    }
    var members: [ResolvedExpression] = []
    var sound = true
    for element in elements {
      guard
        let member = checkExpression(
          element, expected: value.type, context: describe(subject, value))
      else {
        sound = false
        continue
      }
      if member.type != value.type {
        let expected: String
        if case .enumeration(let type) = value.type {
          expected = "takes values such as \(type.cases.prefix(2).joined(separator: ", "))"
        } else {
          expected = "is \(value.type.withArticle)"
        }
        if let named {
          let line = source.location(of: element.span.start).line
          report(
            .listTypeMismatch,
            "the list '\(named.value)' holds \(member.type.withArticle) (line \(line)), but "
              + "\(describe(subject, value)) \(expected)",
            at: named.span,
            hint: quotedValueHint(element, against: value.type)
              ?? "test it against a fact of that kind, or change the list on line \(line)")
          return nil
        }
        report(
          .listTypeMismatch,
          "the list holds \(member.type.withArticle), but \(describe(subject, value)) \(expected)",
          at: element.span, hint: quotedValueHint(element, against: value.type))
        sound = false
      }
      members.append(member)
    }
    guard sound else { return nil }
    // Each member is compared with the value on its own, so each pair is judged: a difference
    // among the members does not let a constant beside a share through.
    checkPercentRangesOfMembers(value, members)
    return fold(node(.membership(negated: negated, value, members), .boolean, span))
  }

  mutating func checkCall(
    _ name: Located<String>, _ arguments: [Expression], _ span: SourceSpan
  )
    -> ResolvedExpression?
  {
    guard let builtin = Builtin(rawValue: name.value) else {
      let hint =
        Suggestions.closest(to: name.value, among: Builtin.allCases.map(\.rawValue)).map {
          "did you mean '\($0)'?"
        }
        ?? "the functions are min, max and round"
      report(.unknownFunction, "unknown function '\(name.value)'", at: name.span, hint: hint)
      return nil
    }
    let checked = arguments.map { checkExpression($0, expected: nil) }
    guard checked.allSatisfy({ $0 != nil }) else { return nil }
    let values = checked.compactMap { $0 }
    let type: ValueType?
    switch builtin {
    case .round:
      type =
        values.count == 1 && [.number, .percent].contains(values[0].type) ? values[0].type : nil
    case .min, .max:
      let first = values.first?.type
      type =
        values.count >= 2 && first!.isOrdered && values.allSatisfy({ $0.type == first })
        ? first : nil
    }
    guard let type else {
      let usage =
        builtin == .round
        ? "round takes one number or percentage"
        : "\(builtin.rawValue) takes two or more values of the same kind"
      report(.invalidArguments, usage, at: span)
      return nil
    }
    if let (a, b) = currencyConflict(values) {
      report(
        .currencyMismatch, "cannot combine \(a) with \(b)", at: span,
        hint: "write both amounts in the same currency")
      return nil
    }
    // A call of constants folds into one, checked where it is used; its parts are checked here
    // only beside a value known at run time (`max(usage.consumed, 50% + 60%)`).
    if values.contains(where: { $0.constantValue == nil }) { checkPercentRanges(values) }
    return fold(node(.call(builtin, values), type, span))
  }

  /// Two different currencies among amounts whose currency is known before the rule runs, which
  /// no operation can combine.
  func currencyConflict(_ operands: [ResolvedExpression]) -> (String, String)? {
    var first: String?
    for case let currency? in operands.map(staticCurrency) {
      guard let known = first else {
        first = currency
        continue
      }
      if known != currency { return (known, currency) }
    }
    return nil
  }

  /// The currency an amount has whatever the facts: a constant's, or one carried through `+`,
  /// `-`, `*`, `/`, `min`, `max` and lets (`customer.lifetime_spent + 5 EUR` is in EUR, since
  /// adding another currency is unknown at run time); nil when only a fact could say.
  func staticCurrency(_ expression: ResolvedExpression) -> String? {
    guard expression.type == .money else { return nil }
    switch expression.kind {
    case .constant(.money(_, let currency)): return currency
    case .arithmetic(_, let left, let right): return staticCurrency(left) ?? staticCurrency(right)
    case .negate(let operand): return staticCurrency(operand)
    case .call(_, let arguments): return arguments.lazy.compactMap(staticCurrency).first
    case .letReference(let index):
      return index < letCurrencies.count ? letCurrencies[index] : staticCurrency(lets[index].value)
    default: return nil
    }
  }
}
