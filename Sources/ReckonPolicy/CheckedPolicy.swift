/// A policy that passed the checker: names resolved, types known, ready to compile.
public struct CheckedPolicy: Sendable {
  /// Held in one shared box, so copying a policy (a decider holds one, and a decision is made
  /// with a copy) costs one reference count, not one per table.
  private final class Storage: Sendable {
    let name: String
    let version: String?
    let summary: String?
    let lets: [CheckedLet]
    let rules: [CheckedRule]
    let otherwise: [CheckedAction]
    let holds: [CheckedHold]
    let otherwiseSpan: SourceSpan?
    let schema: PolicySchema
    let source: SourceFile
    let nodeSpans: [SourceSpan]
    let nodeTypes: [ValueType]

    init(
      name: String, version: String?, summary: String?, lets: [CheckedLet], rules: [CheckedRule],
      otherwise: [CheckedAction], holds: [CheckedHold], otherwiseSpan: SourceSpan?,
      schema: PolicySchema, source: SourceFile, nodeSpans: [SourceSpan], nodeTypes: [ValueType]
    ) {
      self.name = name
      self.version = version
      self.summary = summary
      self.lets = lets
      self.rules = rules
      self.otherwise = otherwise
      self.holds = holds
      self.otherwiseSpan = otherwiseSpan
      self.schema = schema
      self.source = source
      self.nodeSpans = nodeSpans
      self.nodeTypes = nodeTypes
    }
  }

  private let storage: Storage

  init(
    name: String, version: String?, summary: String?, lets: [CheckedLet], rules: [CheckedRule],
    otherwise: [CheckedAction], holds: [CheckedHold], otherwiseSpan: SourceSpan?,
    schema: PolicySchema, source: SourceFile, nodeSpans: [SourceSpan], nodeTypes: [ValueType]
  ) {
    storage = Storage(
      name: name, version: version, summary: summary, lets: lets, rules: rules,
      otherwise: otherwise, holds: holds, otherwiseSpan: otherwiseSpan, schema: schema,
      source: source, nodeSpans: nodeSpans, nodeTypes: nodeTypes)
  }

  /// The name from `policy "..."`, or the file name without extension.
  public var name: String { storage.name }
  /// The `version` header as written, if any.
  public var version: String? { storage.version }
  /// The `description` header, if any.
  public var summary: String? { storage.summary }
  /// The `let` declarations in order; `letReference(index:)` points here.
  public var lets: [CheckedLet] { storage.lets }
  /// The rules in order.
  public var rules: [CheckedRule] { storage.rules }
  /// What happens when no rule matches.
  public var otherwise: [CheckedAction] { storage.otherwise }
  /// The `hold` clauses in order: the first whose condition is true holds the decision.
  public var holds: [CheckedHold] { storage.holds }
  /// Where `otherwise` was written, or nil for the implicit `otherwise share data only`.
  public var otherwiseSpan: SourceSpan? { storage.otherwiseSpan }
  /// The schema it was checked against.
  public var schema: PolicySchema { storage.schema }
  /// The source it came from.
  public var source: SourceFile { storage.source }
  /// The span of every node, by node id, for traces.
  public var nodeSpans: [SourceSpan] { storage.nodeSpans }
  /// The type of every node, by node id, for rendering traced values.
  public var nodeTypes: [ValueType] { storage.nodeTypes }
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
  /// Whether it names a list for `in`, which has no value of its own: `value` stands in.
  public var isNamedList = false
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
