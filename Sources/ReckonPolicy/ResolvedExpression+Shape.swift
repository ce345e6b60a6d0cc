extension ResolvedExpression {
  /// The node's direct operands.
  public var children: [ResolvedExpression] {
    switch kind {
    case .constant, .fact, .letReference: []
    case .negate(let operand), .not(let operand), .missingTest(_, let operand): [operand]
    case .and(let left, let right), .or(let left, let right), .arithmetic(_, let left, let right),
      .compare(_, let left, let right):
      [left, right]
    case .membership(_, let subject, let members): [subject] + members
    case .call(_, let arguments): arguments
    }
  }

  /// What the expression computes, without where it was written: two conditions with the same
  /// shape always have the same value.
  public struct Shape: Hashable, Sendable {
    let description: String
  }

  /// The expression's shape, for finding repeated conditions.
  public var shape: Shape { Shape(description: shapeText) }

  private var shapeText: String {
    let inner = children.map(\.shapeText).joined(separator: ",")
    switch kind {
    case .constant(let value): return "c(\(value))"
    case .fact(let slot): return "f\(slot)"
    case .letReference(let index): return "l\(index)"
    case .negate: return "neg(\(inner))"
    case .not: return "not(\(inner))"
    case .and: return "and(\(inner))"
    case .or: return "or(\(inner))"
    case .arithmetic(let op, _, _): return "\(op.rawValue)(\(inner))"
    case .compare(let op, _, _): return "\(op.rawValue)(\(inner))"
    case .membership(let negated, _, _): return "\(negated ? "notin" : "in")(\(inner))"
    case .missingTest(let negated, _): return "\(negated ? "present" : "missing")(\(inner))"
    case .call(let builtin, _): return "\(builtin.rawValue)(\(inner))"
    }
  }
}
