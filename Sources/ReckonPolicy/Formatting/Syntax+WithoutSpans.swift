/// Syntax with every span set to zero, so two parses of differently laid-out text compare equal
/// exactly when they declare the same things.
extension Declaration {
  /// The declaration without where it was written.
  var withoutSpans: Declaration {
    switch self {
    case .header(.name(let name)): .header(.name(name.withoutSpan))
    case .header(.version(let version)): .header(.version(version.withoutSpan))
    case .header(.description(let text)): .header(.description(text.withoutSpan))
    case .let(let value):
      .let(
        LetDeclaration(
          name: value.name.withoutSpan, value: value.value.withoutSpans, span: .nowhere))
    case .rule(let rule):
      .rule(
        RuleDeclaration(
          name: rule.name.withoutSpan, condition: rule.condition.withoutSpans,
          actions: rule.actions.map(\.withoutSpans), span: .nowhere))
    case .hold(let hold):
      .hold(
        HoldDeclaration(
          name: hold.name.withoutSpan, condition: hold.condition.withoutSpans, span: .nowhere))
    case .otherwise(let clause):
      .otherwise(OtherwiseClause(actions: clause.actions.map(\.withoutSpans), span: .nowhere))
    }
  }
}

extension Action {
  var withoutSpans: Action {
    switch kind {
    case .choose(let choice): Action(kind: .choose(choice.withoutSpan), span: .nowhere)
    case .set(let field, let value):
      Action(kind: .set(field: field.withoutSpan, value: value.withoutSpans), span: .nowhere)
    case .follow(let fact): Action(kind: .follow(fact.withoutSpan), span: .nowhere)
    case .replyWithoutChoice, .withholdReply, .holdForReview: Action(kind: kind, span: .nowhere)
    }
  }
}

extension Expression {
  var withoutSpans: Expression {
    Expression(kind: kindWithoutSpans, span: .nowhere)
  }

  private var kindWithoutSpans: Kind {
    switch kind {
    case .literal, .name, .invalid: kind
    case .negate(let inner): .negate(inner.withoutSpans)
    case .not(let inner): .not(inner.withoutSpans)
    case .binary(let op, let left, let right): .binary(op, left.withoutSpans, right.withoutSpans)
    case .compare(let op, let left, let right): .compare(op, left.withoutSpans, right.withoutSpans)
    case .membership(let negated, let subject, let members):
      .membership(negated: negated, subject.withoutSpans, members.map(\.withoutSpans))
    case .namedMembership(let negated, let subject, let name):
      .namedMembership(negated: negated, subject.withoutSpans, name.withoutSpan)
    case .missingTest(let negated, let subject):
      .missingTest(negated: negated, subject.withoutSpans)
    case .call(let name, let arguments): .call(name.withoutSpan, arguments.map(\.withoutSpans))
    case .list(let members): .list(members.map(\.withoutSpans))
    }
  }
}

extension Located {
  var withoutSpan: Located { Located(value, at: .nowhere) }
}

extension SourceSpan {
  static let nowhere = SourceSpan(start: 0, end: 0)
}
