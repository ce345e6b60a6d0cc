/// A policy that passed the checker: names resolved, types known, ready to compile.
public struct CheckedPolicy: Sendable {
  /// The name from `policy "..."`, or the file name without extension.
  public let name: String
  /// The `version` header as written, if any.
  public let version: String?
  /// The `description` header, if any.
  public let summary: String?
  /// The `let` declarations in order; `letReference(index:)` points here.
  public let lets: [CheckedLet]
  /// The rules in order.
  public let rules: [CheckedRule]
  /// What happens when no rule matches.
  public let otherwise: [CheckedAction]
  /// The `hold` clauses in order: the first whose condition is true holds the decision.
  public let holds: [CheckedHold]
  /// Where `otherwise` was written, or nil for the implicit `otherwise share data only`.
  public let otherwiseSpan: SourceSpan?
  /// The schema it was checked against.
  public let schema: PolicySchema
  /// The source it came from.
  public let source: SourceFile
  /// The span of every node, by node id, for traces.
  public let nodeSpans: [SourceSpan]
  /// The type of every node, by node id, for rendering traced values.
  public let nodeTypes: [ValueType]
}

extension CheckedPolicy {
  /// The index of the `let` called `name`, if there is one.
  public func letIndex(named name: String) -> Int? {
    lets.firstIndex { $0.name == name }
  }

  /// The names of the facts the `let` at `index` reads, directly or through other lets, in the
  /// order they are written.
  public func factsRead(byLet index: Int) -> [String] {
    var names: [String] = []
    // Each let once: lets built from the same let would otherwise be walked once per use.
    var visited: Set<Int> = []
    func walk(_ node: ResolvedExpression) {
      switch node.kind {
      case .fact(let slot):
        let name = schema.facts[slot].name
        if !names.contains(name) { names.append(name) }
      case .letReference(let other):
        if visited.insert(other).inserted { walk(lets[other].value) }
      default:
        node.children.forEach(walk)
      }
    }
    visited.insert(index)
    walk(lets[index].value)
    return names
  }
}

/// A checked `let`.
public struct CheckedLet: Sendable {
  /// The name.
  public let name: String
  /// The value.
  public let value: ResolvedExpression
  /// The whole declaration.
  public let span: SourceSpan
}

/// A checked rule.
public struct CheckedRule: Sendable {
  /// The name.
  public let name: String
  /// The condition, of boolean type.
  public let condition: ResolvedExpression
  /// The actions, in the order written.
  public let actions: [CheckedAction]
  /// The whole rule.
  public let span: SourceSpan
  /// The span of the name, for diagnostics about the rule.
  public let nameSpan: SourceSpan
}

/// A checked `hold` clause.
public struct CheckedHold: Sendable {
  /// The name.
  public let name: String
  /// The condition, of boolean type.
  public let condition: ResolvedExpression
  /// The span of the name, for diagnostics about the clause.
  public let nameSpan: SourceSpan
}

/// A checked action.
public enum CheckedAction: Hashable, Sendable {
  /// The choosing action (`refund CHOICE` in App Store policies): the ordinal of the choice among
  /// the schema's choices, and its name.
  case choose(ordinal: Int, name: String)
  case replyWithoutChoice
  case withholdReply
  case holdForReview
  /// `set FIELD = EXPR`.
  case set(field: FieldDescriptor, value: ResolvedExpression)
  /// `follow FACT`: the answer is the action `answers[ordinal]` for the fact's value.
  indirect case follow(slot: Int, answers: [CheckedAction])
}
