/// Why an operator command was refused.
public struct OutboxCommandRefused: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was refused and why.
  public let description: String

  /// A refusal saying `description`.
  public init(description: String) {
    self.description = description
  }
}
