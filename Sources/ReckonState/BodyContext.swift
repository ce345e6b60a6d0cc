/// What a store's body rules need to know about a reply's transaction (its product type, its
/// ownership), as named values the store's module writes and reads back. The state keeps them
/// beside the body, for the checks before each send and after an operator's edit.
public struct BodyContext: Hashable, Sendable {
  /// The values by name.
  public var values: [String: String]

  /// A context of `values`.
  public init(_ values: [String: String] = [:]) {
    self.values = values
  }
}
