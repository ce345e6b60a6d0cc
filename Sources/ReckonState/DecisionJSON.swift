import Foundation

/// A decision's facts and explanation, as JSON written or in the form a state stores them.
/// Format 2 compresses both with zstd, the explanation with the facts as its prefix, since the
/// explanation lists the facts again (8 KB of JSON takes 1.3 KB); format 1 deflated them the same
/// way; format 0 is the JSON as written, as rows from before were stored.
public struct DecisionJSON: Hashable, Sendable {
  /// The format `stored` writes, recorded beside the row.
  public static let format: Int64 = 2

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
      facts: Zstandard.compress(facts),
      explanation: explanation.map { Zstandard.compress($0, prefix: facts) })
  }

  /// The JSON written, from values stored in `format` (0: as they are); `decisionId` names the
  /// row in an error.
  public func written(format: Int64, decisionId: Int64) throws(StateError) -> DecisionJSON {
    let facts: Data
    let explanation: Data?
    switch format {
    case 0: return self
    case 1:
      facts = try Deflated.decompress(self.facts, what: "the facts of decision \(decisionId)")
      explanation = try self.explanation.map { stored throws(StateError) in
        try Deflated.decompress(
          stored, dictionary: facts, what: "the explanation of decision \(decisionId)")
      }
    case Self.format:
      facts = try Zstandard.decompress(self.facts, what: "the facts of decision \(decisionId)")
      explanation = try self.explanation.map { stored throws(StateError) in
        try Zstandard.decompress(
          stored, prefix: facts, what: "the explanation of decision \(decisionId)")
      }
    default:
      throw .unreadableRow(
        what: "decision \(decisionId)", reason: "its format \(format) is not one this Reckon reads")
    }
    return DecisionJSON(facts: facts, explanation: explanation)
  }
}
