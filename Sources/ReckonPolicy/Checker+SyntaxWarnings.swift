/// The warnings only the syntax as written can give (the checked policy has lost its parentheses
/// and its unused lets): added once a policy checks, as every warning is.
extension Checker {
  func syntaxWarnings(_ syntax: PolicySyntax) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    for (index, declaration) in syntax.lets.enumerated()
    where !declaration.name.value.isEmpty && !usedLets.contains(index)
      && declaredLets[declaration.name.value]?.index == index
    {
      warnings.append(
        Diagnostic(
          .unusedLet, .warning, "'\(declaration.name.value)' is never used",
          at: declaration.name.span,
          hint: "use it in a rule, or remove it if it was left over"))
    }
    var expressions = syntax.lets.map(\.value)
    for rule in syntax.rules {
      expressions.append(rule.condition)
      expressions += rule.actions.compactMap(\.setValue)
    }
    expressions += (syntax.otherwise?.actions ?? []).compactMap(\.setValue)
    expressions += syntax.holds.map(\.condition)
    for expression in expressions { mixedAndOr(in: expression, into: &warnings) }
    return warnings
  }

  /// `a or b and c` reads as `a or (b and c)`: 'and' binds tighter. Written without
  /// parentheses, it is as often meant the other way, so each such 'or' gets a warning.
  private func mixedAndOr(in expression: Expression, into warnings: inout [Diagnostic]) {
    if case .binary(.or, let left, let right) = expression.kind {
      for side in [left, right] {
        guard case .binary(.and, let first, let second) = side.kind,
          side.span.start == first.span.start, side.span.end == second.span.end
        else { continue }
        let other = source.text(of: side == left ? right.span : left.span)
        let andFirst = source.text(of: first.span)
        let andSecond = source.text(of: second.span)
        let written =
          side == left
          ? "(\(andFirst) and \(andSecond)) or \(other)"
          : "\(other) or (\(andFirst) and \(andSecond))"
        let otherReading =
          side == left
          ? "\(andFirst) and (\(andSecond) or \(other))"
          : "(\(other) or \(andFirst)) and \(andSecond)"
        warnings.append(
          Diagnostic(
            .mixedAndOr, .warning,
            "'and' and 'or' without parentheses: 'and' is read first, as \(written)",
            at: expression.span,
            hint: "add parentheses to say which is meant: \(written), or \(otherReading)"))
      }
    }
    for child in expression.syntaxChildren { mixedAndOr(in: child, into: &warnings) }
  }
}

extension Action {
  /// The value of a `set FIELD = VALUE` action.
  var setValue: Expression? {
    if case .set(_, let value) = kind { value } else { nil }
  }
}

extension Expression {
  /// The expressions directly inside this one, as written.
  var syntaxChildren: [Expression] {
    switch kind {
    case .literal, .name, .invalid: []
    case .negate(let inner), .not(let inner), .missingTest(_, let inner),
      .namedMembership(_, let inner, _):
      [inner]
    case .binary(_, let left, let right), .compare(_, let left, let right): [left, right]
    case .membership(_, let subject, let members): [subject] + members
    case .call(_, let arguments): arguments
    case .list(let members): members
    }
  }
}
