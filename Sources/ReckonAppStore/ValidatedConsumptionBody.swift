import Foundation

/// A consumption body's exact bytes after they passed every Apple rule. Senders accept only this
/// type and it has no other initializer, so an unvalidated body cannot be sent.
public struct ValidatedConsumptionBody: Hashable, Sendable {
  /// The bytes to send, unchanged from what was validated.
  public let data: Data

  /// Validates `data` as a raw JSON body for a transaction described by `context`.
  public init(validating data: Data, context: ConsumptionValidationContext) throws(BodyRejected) {
    let violations = ConsumptionRequestValidator.validate(body: data, context: context)
    guard violations.isEmpty else { throw BodyRejected(violations: violations) }
    self.data = data
  }

  /// The Apple rules a body breaks.
  public struct BodyRejected: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every violation, in validation order.
    public let violations: [AppleRuleViolation]

    /// The violated rules in words, each with Apple's error name where Apple publishes one
    /// (Reckon's own names would send a reader searching Apple's documentation in vain).
    public var description: String {
      "the body breaks Apple's rules: " + violations.map(\.inWords).joined(separator: " ")
    }
  }
}
