import ReckonFacts
import ReckonPolicy

/// What gathering facts can come to, and which facts a decision reads.
public enum FactGathering {
  /// The result of gathering facts for one request.
  public enum Outcome: Hashable, Sendable {
    /// Decide on these facts. Sources that failed without mattering are in `facts.failures`.
    case ready(GatheredFacts)
    /// Do not decide now: a source that failed could have supplied a fact the decision reads.
    /// Keep the request and try again later.
    case retry(FactGatheringFailure)
  }

  /// The facts the body is built from by default, read whatever the policy says.
  public static let bodyFacts: Set<String> = [
    "customer.consented", "delivery.status", "product.sample_offered", "usage.consumed",
  ]

  /// Every fact a decision by `policy` may read: its rules' conditions, `set` values and the lets
  /// they use, plus the facts the body is built from.
  public static func factsRead(by policy: CompiledPolicy) -> Set<String> {
    let checked = policy.checked
    var slots: Set<Int> = []
    var visitedLets: Set<Int> = []
    func walk(_ expression: ResolvedExpression) {
      switch expression.kind {
      case .fact(let slot): slots.insert(slot)
      case .letReference(let index):
        if visitedLets.insert(index).inserted { walk(checked.lets[index].value) }
      default: expression.children.forEach(walk)
      }
    }
    let actions = checked.rules.flatMap(\.actions) + checked.otherwise
    for rule in checked.rules { walk(rule.condition) }
    for case .set(_, let value) in actions { walk(value) }
    return Set(slots.map { checked.schema.facts[$0].name }).union(bodyFacts)
  }
}

/// Facts could not be gathered well enough to decide: which sources failed and why, and which
/// facts the decision reads that they might have supplied.
public struct FactGatheringFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// Each failed source, records first, then in configured order.
  public let failures: [FactSourceFailure]
  /// The facts the decision reads that a failed source might have supplied.
  public let neededFacts: [String]

  /// Creates the failure.
  public init(failures: [FactSourceFailure], neededFacts: [String]) {
    self.failures = failures
    self.neededFacts = neededFacts
  }

  /// One sentence: what failed and what the decision would have needed from it.
  public var description: String {
    "retry later: " + failures.map(\.description).joined(separator: "; ")
      + "; the decision reads " + neededFacts.joined(separator: ", ")
  }
}
