import Testing

@testable import ReckonPolicy

/// Shortcuts the suites share: load, parse and pick apart policies written inline.
extension TestSchema {
  /// The source file for policy text.
  static func source(_ text: String, path: String = "test.policy") -> SourceFile {
    SourceFile(path: path, text: text)
  }

  /// The ids of every diagnostic of a load, in order.
  static func ids(_ text: String) -> [DiagnosticID] {
    load(text).diagnostics.map(\.id)
  }

  /// The ids of the errors of a load.
  static func errorIDs(_ text: String) -> [DiagnosticID] {
    load(text).diagnostics.filter(\.isError).map(\.id)
  }

  /// The ids of the warnings of a load.
  static func warningIDs(_ text: String) -> [DiagnosticID] {
    load(text).diagnostics.filter { !$0.isError }.map(\.id)
  }

  /// A policy that must load without errors.
  static func compile(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
    -> CompiledPolicy
  {
    let result = load(text)
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())", sourceLocation: sourceLocation)
    return try #require(result.policy, sourceLocation: sourceLocation)
  }

  /// The parsed condition of `rule "r" when CONDITION then refund DECLINE`.
  static func condition(_ text: String) -> (Expression, [Diagnostic]) {
    let (syntax, diagnostics) = Parser.parse(source("rule \"r\" when \(text) then refund DECLINE"))
    return (
      syntax.rules.first?.condition
        ?? Expression(kind: .invalid, span: SourceSpan(start: 0, end: 0)), diagnostics
    )
  }

  /// The checked condition of one rule, for folding and typing tests.
  static func checkedCondition(_ text: String, lets: String = "") throws -> ResolvedExpression {
    let policy = try compile("\(lets)\nrule \"r\" when \(text) then refund DECLINE")
    return try #require(policy.checked.rules.first).condition
  }

  /// Facts where every required fact has an ordinary value; tests override a few.
  static func baseFacts(_ overrides: [String: Value?] = [:]) throws -> FactValues {
    var facts = FactValues(schema: schema)
    let base: [String: Value] = [
      "reason": .enumeration(reason.ordinal(of: "OTHER")!),
      "now": .timestamp(1_700_000_000),
      "product.id": .text("com.example.coins"),
      "product.type": .enumeration(productType.ordinal(of: "CONSUMABLE")!),
      "purchase.date": .timestamp(1_700_000_000 - 10 * 86_400),
      "delivery.status": .enumeration(delivery.ordinal(of: "DELIVERED")!),
      "usage.consumed": .percent(50),
      "customer.consented": .boolean(true),
      "customer.account_age": .duration(400 * 86_400),
      "customer.refunds_last_90_days": .number(0),
    ]
    for (name, value) in base { try facts.set(name, to: value) }
    for (name, value) in overrides { try facts.set(name, to: value) }
    return facts
  }

  static func enumValue(_ type: EnumType, _ name: String) -> Value {
    .enumeration(type.ordinal(of: name)!)
  }
}

/// Prints a syntax tree as an S-expression, so precedence tests read like the grouping they pin.
enum TreePrinter {
  static func print(_ expression: Expression) -> String {
    switch expression.kind {
    case .literal(let literal): return print(literal)
    case .name(let name): return name
    case .negate(let operand): return "(- \(print(operand)))"
    case .not(let operand): return "(not \(print(operand)))"
    case .binary(let op, let left, let right):
      return "(\(op.rawValue) \(print(left)) \(print(right)))"
    case .compare(let op, let left, let right):
      return "(\(op.rawValue) \(print(left)) \(print(right)))"
    case .membership(let negated, let subject, let elements):
      return
        "(\(negated ? "not in" : "in") \(print(subject)) [\(elements.map(print).joined(separator: " "))])"
    case .namedMembership(let negated, let subject, let name):
      return "(\(negated ? "not in" : "in") \(print(subject)) \(name.value))"
    case .missingTest(let negated, let subject):
      return "(\(negated ? "is not missing" : "is missing") \(print(subject)))"
    case .call(let name, let arguments):
      return "(\(name.value) \(arguments.map(print).joined(separator: " ")))"
    case .list(let elements): return "[\(elements.map(print).joined(separator: " "))]"
    case .invalid: return "<invalid>"
    }
  }

  static func print(_ literal: Literal) -> String {
    switch literal {
    case .boolean(let flag): return "\(flag)"
    case .number(let number): return Value.formatNumber(number)
    case .percent(let percent): return Value.formatNumber(percent) + "%"
    case .money(let milli, let currency): return "\(milli)m\(currency)"
    case .duration(let seconds, let unit, let count):
      return "\(Value.formatNumber(seconds))s(\(Value.formatNumber(count)) \(unit))"
    case .text(let text): return "\"\(text)\""
    case .timestamp(let seconds, _): return "@\(Value.formatNumber(seconds))"
    }
  }
}
