import Foundation

/// A decision's facts and explanation, as JSON written or in the form a state stores them.
/// Format 1 deflates both, the explanation with the facts as zlib's preset dictionary, since
/// the explanation lists the facts again (8 KB of JSON takes 1.3 KB); format 0 is the JSON as
/// written, as rows from before were stored.
public struct DecisionJSON: Hashable, Sendable {
  /// The format `stored` writes, recorded beside the row.
  public static let format: Int64 = 1

  /// The facts (`facts_json`).
  public var facts: Data
  /// The explanation (`explanation_json`), when there is one.
  public var explanation: Data?

  /// The two values as they are.
  public init(facts: Data, explanation: Data?) {
    self.facts = facts
    self.explanation = explanation
  }

  /// The values stored in `format`.
  public var stored: DecisionJSON {
    DecisionJSON(
      facts: Deflated.compress(facts),
      explanation: explanation.map { Deflated.compress($0, dictionary: facts) })
  }

  /// The JSON written, from values stored in `format` (0: as they are); `decisionId` names the
  /// row in an error.
  public func written(format: Int64, decisionId: Int64) throws(StateError) -> DecisionJSON {
    guard format != 0 else { return self }
    guard format == Self.format else {
      throw .unreadableRow(
        what: "decision \(decisionId)", reason: "its format \(format) is not one this Reckon reads")
    }
    let facts = try Deflated.decompress(self.facts, what: "the facts of decision \(decisionId)")
    guard let explanation else { return DecisionJSON(facts: facts, explanation: nil) }
    return DecisionJSON(
      facts: facts,
      explanation: try Deflated.decompress(
        explanation, dictionary: facts, what: "the explanation of decision \(decisionId)"))
  }
}
