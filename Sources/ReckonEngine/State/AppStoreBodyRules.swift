import Foundation
import ReckonAppStore
import ReckonState

/// Apple's rules for a Send Consumption Information body, as the state checks every body
/// against before it is queued.
public struct AppStoreBodyRules: BodyRules {
  /// The rules.
  public init() {}

  /// Why `body` breaks one of Apple's rules for a transaction of `context`, or nil.
  public func violation(of body: Data, context: BodyContext) -> String? {
    do {
      _ = try ValidatedConsumptionBody(
        validating: body, context: ConsumptionValidationContext(context))
      return nil
    } catch {
      return error.description
    }
  }
}

extension CheckedBody {
  /// `body` checked against Apple's rules for a transaction of `context`.
  public init(appStore body: Data, context: ConsumptionValidationContext) throws(StateError) {
    try self.init(body, context: context.bodyContext, rules: AppStoreBodyRules())
  }
}
