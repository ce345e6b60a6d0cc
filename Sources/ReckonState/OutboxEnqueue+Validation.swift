import ReckonAppStore

extension OutboxEnqueue {
  /// Throws `.invalidBody` unless the body passes every rule the store enforces for its
  /// transaction. Every backend calls it before writing an entry, so that none can queue a body
  /// the store would refuse, and none writes the check again.
  public func validate() throws(StateError) {
    do {
      _ = try ValidatedConsumptionBody(validating: body, context: context)
    } catch {
      throw .invalidBody(error.description)
    }
  }
}
