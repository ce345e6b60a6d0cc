/// Prints expressions in canonical spelling with the fewest parentheses that parse back to the
/// same tree and draw no mixed-and-or warning: operators spaced, literals written one way, a
/// right operand of equal precedence parenthesised so the tree keeps its shape.
struct ExpressionPrinter {
  /// The text the expressions were parsed from, for literals no canonical spelling can write.
  let source: SourceFile
  /// Where each comment starts, so wrapping can keep a break a comment sits at.
  let comments: [Int]

  /// Whether a comment starts strictly between two source offsets.
  func hasComment(from start: Int, to end: Int) -> Bool {
    comments.contains { $0 > start && $0 < end }
  }

  /// The offset of the first token at or after `offset`, skipping blanks, line breaks and comments.
  func tokenStart(after offset: Int) -> Int { source.tokenStart(after: offset) }

  /// Binding strength, loosest first, as the parser climbs it.
  enum Precedence: Int, Comparable {
    case or = 1
    case and
    case not
    case comparison
    case additive
    case multiplicative
    case unary
    case primary

    static func < (left: Precedence, right: Precedence) -> Bool { left.rawValue < right.rawValue }
  }

  func print(_ expression: Expression) -> String {
    switch expression.kind {
    case .literal(let literal): return print(literal, at: expression.span)
    case .name(let name): return name
    case .negate(let inner): return "-" + operand(inner, above: .unary, orEqual: false)
    case .not(let inner):
      // `not reason == LEGAL` parses as `not (reason == LEGAL)`, but reads to many as
      // `(not reason) == LEGAL`: a comparison after `not` keeps its parentheses.
      let shown = operand(inner, above: .not, orEqual: false)
      return Self.precedence(of: inner) == .comparison ? "not (" + shown + ")" : "not " + shown
    case .binary(let op, let left, let right):
      let level = Self.precedence(of: expression)
      return operand(left, above: level, orEqual: false) + " \(op.rawValue) "
        + operand(right, above: level, orEqual: true)
    case .compare(let op, let left, let right):
      return operand(left, above: .comparison, orEqual: true) + " \(op.rawValue) "
        + operand(right, above: .comparison, orEqual: true)
    case .membership(let negated, let subject, let members):
      let list = "[" + members.map(print).joined(separator: ", ") + "]"
      return operand(subject, above: .comparison, orEqual: true) + (negated ? " not in " : " in ")
        + list
    case .namedMembership(let negated, let subject, let name):
      return operand(subject, above: .comparison, orEqual: true) + (negated ? " not in " : " in ")
        + name.value
    case .missingTest(let negated, let subject):
      return operand(subject, above: .comparison, orEqual: true)
        + (negated ? " is not missing" : " is missing")
    case .call(let name, let arguments):
      return name.value + "(" + arguments.map(print).joined(separator: ", ") + ")"
    case .list(let members):
      return "[" + members.map(print).joined(separator: ", ") + "]"
    case .invalid:
      return "?"
    }
  }

  /// An operand, parenthesised when it binds looser than its place needs, and an 'and' inside
  /// an 'or', which reads either way without them (the checker warns of it: mixed-and-or).
  func operand(_ expression: Expression, above level: Precedence, orEqual: Bool) -> String {
    let own = Self.precedence(of: expression)
    let needsParentheses =
      own < level || (orEqual && own == level) || (level == .or && own == .and)
    return needsParentheses ? "(" + print(expression) + ")" : print(expression)
  }

  static func precedence(of expression: Expression) -> Precedence {
    switch expression.kind {
    case .binary(.or, _, _): .or
    case .binary(.and, _, _): .and
    case .not: .not
    case .compare, .membership, .namedMembership, .missingTest: .comparison
    case .binary(.add, _, _), .binary(.subtract, _, _): .additive
    case .binary(.multiply, _, _), .binary(.divide, _, _): .multiplicative
    case .negate: .unary
    case .literal(.number(let number)) where number < 0: .unary
    default: .primary
    }
  }

  func print(_ literal: Literal, at span: SourceSpan) -> String {
    switch literal {
    case .boolean(let flag): flag ? "true" : "false"
    case .number(let number): numberText(number, at: span)
    case .percent(let percent): numberText(percent, at: span) + "%"
    case .money(let milli, let currency):
      (milli % 1000 == 0 ? String(milli / 1000) : Value.formatMoney(milli)) + " " + currency
    case .duration(_, let unit, let count): numberText(count, at: span) + " " + unit
    case .text(let text): Self.quoted(text)
    case .timestamp(_, let written): written
    }
  }

  /// A number in plain decimal. (The parser refuses a literal too large or too small for a
  /// double, so every number here has a finite value.)
  private func numberText(_ number: Double, at span: SourceSpan) -> String {
    Value.formatNumber(number)
  }

  /// Text between double quotes with `"`, `\`, line breaks and tabs escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  /// One operand of a chain: as printed, where it was written, and the chain inside it that a
  /// too-long line may be broken in, with what goes before it (`(` or `not (`).
  struct ChainPart {
    let text: String
    let start: Int
    let end: Int
    let inner: (opening: String, chain: Expression)?
  }

  /// The operands of a top-level `and` (or `or`) chain, each printed, for wrapping long conditions.
  func chain(_ expression: Expression) -> (word: String, parts: [ChainPart])? {
    guard case .binary(let op, _, _) = expression.kind, op == .and || op == .or else { return nil }
    let level = Self.precedence(of: expression)
    var parts: [ChainPart] = []
    var node = expression
    while case .binary(op, let left, let right) = node.kind {
      parts.insert(part(right, operand(right, above: level, orEqual: true)), at: 0)
      node = left
    }
    parts.insert(part(node, operand(node, above: level, orEqual: false)), at: 0)
    return (op.rawValue, parts)
  }

  /// `text`, the operand printed, as a part; one that is a parenthesised chain, or `not` of one,
  /// can be broken inside its parentheses.
  private func part(_ node: Expression, _ text: String) -> ChainPart {
    func isChain(_ expression: Expression) -> Bool {
      if case .binary(let op, _, _) = expression.kind { return op == .and || op == .or }
      return false
    }
    var inner: (String, Expression)?
    if isChain(node), text.hasPrefix("(") {
      inner = ("(", node)
    } else if case .not(let operand) = node.kind, isChain(operand), text.hasPrefix("not (") {
      inner = ("not (", operand)
    }
    return ChainPart(text: text, start: node.span.start, end: node.span.end, inner: inner)
  }
}
