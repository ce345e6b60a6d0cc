import Foundation
import ReckonSupport

/// A consumption body's exact bytes after they passed every Apple rule. Senders accept only this
/// type and it has no other initializer, so an unvalidated body cannot be sent.
public struct ValidatedConsumptionBody: Hashable, Sendable {
  /// The bytes to send, unchanged from what was validated.
  public let data: Data

  /// Validates `data` as a raw JSON body for a transaction described by `context`. Beyond
  /// Apple's rules, the body must be as Reckon writes one: Apple's five fields only, and the
  /// percentage a plain integer. The bytes go to Apple unchanged, so a key Apple does not define
  /// or `5e4` would leave it to Apple to read them as Reckon did.
  public init(validating data: Data, context: ConsumptionValidationContext) throws(BodyRejected) {
    let violations = ConsumptionRequestValidator.validate(body: data, context: context)
    guard violations.isEmpty else { throw BodyRejected(violations: violations) }
    if let problem = Self.shapeProblem(data) {
      throw BodyRejected(violations: [], shapeProblem: problem)
    }
    self.data = data
  }

  /// The fields a consumption body may hold.
  static let fields: Set<String> = [
    "customerConsented", "deliveryStatus", "sampleContentProvided", "consumptionPercentage",
    "refundPreference",
  ]

  /// What makes a body that passed Apple's rules other than Reckon writes one, if anything.
  static func shapeProblem(_ data: Data) -> String? {
    guard case .object(let object)? = try? JSONValue.parse(data) else { return nil }
    if let stray = object.keys.filter({ !fields.contains($0) }).sorted().first {
      return "'\(QuotedText.cut(stray, to: 60))' is none of the body's fields"
    }
    if let percentage = object["consumptionPercentage"] {
      guard case .integer = percentage else {
        return "consumptionPercentage must be written as a whole number of milliunits"
      }
    }
    return nil
  }

  /// Why a body may not be sent: the Apple rules it breaks, or a shape Reckon does not write.
  public struct BodyRejected: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every violation, in validation order.
    public let violations: [AppleRuleViolation]
    /// For a body within Apple's rules, what is unlike a body Reckon writes.
    public let shapeProblem: String?

    init(violations: [AppleRuleViolation], shapeProblem: String? = nil) {
      self.violations = violations
      self.shapeProblem = shapeProblem
    }

    /// The violated rules in words, each with Apple's error name where Apple publishes one
    /// (Reckon's own names would send a reader searching Apple's documentation in vain).
    public var description: String {
      if violations.isEmpty, let shapeProblem {
        return "the body is not one Reckon would send: \(shapeProblem)"
      }
      return "the body breaks Apple's rules: " + violations.map(\.inWords).joined(separator: " ")
    }
  }
}
