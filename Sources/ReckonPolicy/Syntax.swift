/// The syntax tree of a policy file, exactly as written; every node knows its span.
public struct PolicySyntax: Hashable, Sendable {
  /// The declarations in source order.
  public var declarations: [Declaration]
  /// The comments, for the formatter.
  public var comments: [Comment]

  /// The `let` declarations in source order.
  public var lets: [LetDeclaration] {
    declarations.compactMap { if case .let(let value) = $0 { value } else { nil } }
  }

  /// The rules in source order.
  public var rules: [RuleDeclaration] {
    declarations.compactMap { if case .rule(let value) = $0 { value } else { nil } }
  }

  /// The `hold` clauses in source order.
  public var holds: [HoldDeclaration] {
    declarations.compactMap { if case .hold(let value) = $0 { value } else { nil } }
  }

  /// The `otherwise` clause, if the file has one.
  public var otherwise: OtherwiseClause? {
    for case .otherwise(let value) in declarations { return value }
    return nil
  }

  /// The value of the `policy "NAME"` header.
  public var name: Located<String>? {
    for case .header(.name(let value)) in declarations { return value }
    return nil
  }

  /// The value of the `version N` header.
  public var version: Located<String>? {
    for case .header(.version(let value)) in declarations { return value }
    return nil
  }

  /// The value of the `description "..."` header.
  public var summary: Located<String>? {
    for case .header(.description(let value)) in declarations { return value }
    return nil
  }
}

/// A value with the span it was written at.
public struct Located<Wrapped: Hashable & Sendable>: Hashable, Sendable {
  /// The value.
  public var value: Wrapped
  /// Where it was written.
  public var span: SourceSpan

  /// Pairs a value with its span.
  public init(_ value: Wrapped, at span: SourceSpan) {
    self.value = value
    self.span = span
  }
}

/// One top-level item of a policy file.
public enum Declaration: Hashable, Sendable {
  case header(HeaderField)
  case `let`(LetDeclaration)
  case rule(RuleDeclaration)
  case hold(HoldDeclaration)
  case otherwise(OtherwiseClause)
}

/// `policy "NAME"`, `version N` or `description "..."`.
public enum HeaderField: Hashable, Sendable {
  case name(Located<String>)
  case version(Located<String>)
  case description(Located<String>)
}

/// `let NAME = EXPR`.
public struct LetDeclaration: Hashable, Sendable {
  /// The name being defined.
  public var name: Located<String>
  /// Its value.
  public var value: Expression
  /// The whole declaration.
  public var span: SourceSpan
}

/// `rule "NAME" when EXPR then ACTIONS`.
public struct RuleDeclaration: Hashable, Sendable {
  /// The rule's name, shown in decisions and traces.
  public var name: Located<String>
  /// The condition.
  public var condition: Expression
  /// What happens when the condition holds.
  public var actions: [Action]
  /// The whole rule.
  public var span: SourceSpan
}

/// `hold "NAME" when EXPR`: holds whatever the rules decide for review, and never decides.
public struct HoldDeclaration: Hashable, Sendable {
  /// The hold's name, recorded with the decisions it holds.
  public var name: Located<String>
  /// When it holds.
  public var condition: Expression
  /// The whole clause.
  public var span: SourceSpan
}

/// `otherwise ACTIONS`.
public struct OtherwiseClause: Hashable, Sendable {
  /// What happens when no rule matched.
  public var actions: [Action]
  /// The whole clause.
  public var span: SourceSpan
}

/// One action after `then` or `otherwise`.
public struct Action: Hashable, Sendable {
  /// Which action.
  public enum Kind: Hashable, Sendable {
    /// `refund CHOICE`.
    case choose(Located<String>)
    /// `share data only`.
    case replyWithoutChoice
    /// `do not respond`.
    case withholdReply
    /// `hold for review`.
    case holdForReview
    /// `set FIELD = EXPR`.
    case set(field: Located<String>, value: Expression)
    /// `follow FACT`: the answer is the fact's value.
    case follow(Located<String>)
  }

  /// Which action.
  public var kind: Kind
  /// Where it was written.
  public var span: SourceSpan
}

/// An expression node.
public struct Expression: Hashable, Sendable {
  /// The node's shape.
  public indirect enum Kind: Hashable, Sendable {
    case literal(Literal)
    /// A fact, a `let`, or an enum value: which one is the checker's to decide.
    case name(String)
    case negate(Expression)
    case not(Expression)
    case binary(BinaryOperator, Expression, Expression)
    case compare(ComparisonOperator, Expression, Expression)
    case membership(negated: Bool, Expression, [Expression])
    /// `x in NAME`: membership in the list a `let` names.
    case namedMembership(negated: Bool, Expression, Located<String>)
    case missingTest(negated: Bool, Expression)
    case call(Located<String>, [Expression])
    case list([Expression])
    /// Stands where the parser found no expression; the error is already reported.
    case invalid
  }

  /// The node's shape.
  public var kind: Kind
  /// Where it was written.
  public var span: SourceSpan
}

/// A literal written in the policy.
public enum Literal: Hashable, Sendable {
  case boolean(Bool)
  case number(Double)
  case percent(Double)
  /// Thousandths of the currency unit.
  case money(Int64, currency: String)
  /// Seconds, with the unit as written for the formatter.
  case duration(Double, unit: String, count: Double)
  case text(String)
  /// Seconds since 1970 (UTC), with the date as written for the formatter.
  case timestamp(Double, written: String)
}

/// `and`, `or` and arithmetic.
public enum BinaryOperator: String, Hashable, Sendable {
  case and
  case or
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
}

/// Comparisons between two values.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case startsWith = "starts with"
  case endsWith = "ends with"
  case contains = "contains"
}
