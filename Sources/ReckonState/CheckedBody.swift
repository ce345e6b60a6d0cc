import Foundation

/// A reply body that passed its store's rules for its transaction: an outbox entry is made only
/// from one, so no backend can queue a body the store would refuse, and none checks it again.
public struct CheckedBody: Hashable, Sendable {
  /// The exact bytes to send.
  public let bytes: Data
  /// What the rules were told about the transaction, kept for the checks before each send.
  public let context: BodyContext

  /// Checks `bytes` against `rules`; throws `.invalidBody` saying which rule it breaks.
  public init(_ bytes: Data, context: BodyContext, rules: some BodyRules) throws(StateError) {
    if let violation = rules.violation(of: bytes, context: context) {
      throw .invalidBody(violation)
    }
    self.bytes = bytes
    self.context = context
  }
}
