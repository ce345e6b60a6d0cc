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

  /// Built by appending to one string, and with a constant's value spelled out here: string
  /// interpolation of a `Value` goes through reflection, and the lints and the analysis take
  /// the shape of every condition of every rule.
  private var shapeText: String {
    var text = ""
    appendShape(to: &text)
    return text
  }

  private func appendShape(to text: inout String) {
    switch kind {
    case .constant(let value):
      text += "c("
      Self.appendShape(of: value, to: &text)
      text += ")"
      return
    case .fact(let slot):
      text += "f"
      text += String(slot)
      return
    case .letReference(let index):
      text += "l"
      text += String(index)
      return
    case .negate: text += "neg"
    case .not: text += "not"
    case .and: text += "and"
    case .or: text += "or"
    case .arithmetic(let op, _, _): text += op.rawValue
    case .compare(let op, _, _): text += op.rawValue
    case .membership(let negated, _, _): text += negated ? "notin" : "in"
    case .missingTest(let negated, _): text += negated ? "present" : "missing"
    case .call(let builtin, _): text += builtin.rawValue
    }
    text += "("
    for (position, child) in children.enumerated() {
      if position > 0 { text += "," }
      child.appendShape(to: &text)
    }
    text += ")"
  }

  /// A value's case and contents, one text per distinct value: a text is prefixed with its
  /// length, so no text can read as the end of one constant and the start of another.
  private static func appendShape(of value: Value, to text: inout String) {
    switch value {
    case .boolean(let flag): text += flag ? "b1" : "b0"
    case .number(let number): text += "n" + number.description
    case .percent(let percent): text += "p" + percent.description
    case .money(let milli, let currency):
      text += "m" + String(milli) + ":" + String(currency.utf8.count) + ":" + currency
    case .duration(let seconds): text += "d" + seconds.description
    case .timestamp(let seconds): text += "t" + seconds.description
    case .text(let string): text += "s" + String(string.utf8.count) + ":" + string
    case .enumeration(let ordinal): text += "e" + String(ordinal)
    }
  }
}
