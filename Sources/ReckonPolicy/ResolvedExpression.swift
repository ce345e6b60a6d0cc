/// A checked expression: names resolved to slots, enum values to ordinals, every node typed.
///
/// Only the checker makes these, so only checked policies can be compiled and run.
public struct ResolvedExpression: Hashable, Sendable {
  /// The node's shape.
  public indirect enum Kind: Hashable, Sendable {
    case constant(Value)
    case fact(slot: Int)
    case letReference(index: Int)
    case negate(ResolvedExpression)
    case not(ResolvedExpression)
    case and(ResolvedExpression, ResolvedExpression)
    case or(ResolvedExpression, ResolvedExpression)
    case arithmetic(ArithmeticOperator, ResolvedExpression, ResolvedExpression)
    case compare(ComparisonOperator, ResolvedExpression, ResolvedExpression)
    case membership(negated: Bool, ResolvedExpression, [ResolvedExpression])
    case missingTest(negated: Bool, ResolvedExpression)
    case call(Builtin, [ResolvedExpression])
  }

  /// The node's shape.
  public let kind: Kind
  /// The type of the values it produces.
  public let type: ValueType
  /// Where it was written.
  public let span: SourceSpan
  /// A number unique within the policy, which traces use to name the node.
  public let id: Int

  /// Whether the node is a constant, and which.
  public var constantValue: Value? {
    if case .constant(let value) = kind { value } else { nil }
  }
}

/// The four arithmetic operations.
public enum ArithmeticOperator: String, Hashable, Sendable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
}

/// The built-in functions.
public enum Builtin: String, Hashable, Sendable, CaseIterable {
  case min
  case max
  case round
}
