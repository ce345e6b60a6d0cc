/// Checks a v2 consumption body against every rule that makes Apple answer HTTP 400.
///
/// A body with violations must never be sent: the request would be refused and the 12-hour
/// window keeps running. Every entry point returns all violations at once, in the order of
/// `AppleRuleViolation.allCases`; an empty list means the body is valid.
public enum ConsumptionRequestValidator {
  /// The percentage Apple reads as "all of it", in milliunits.
  public static let fullConsumption = 100_000

  /// Validates a typed body for a transaction described by `context`.
  public static func validate(
    _ request: ConsumptionRequest,
    context: ConsumptionValidationContext = .init()
  ) -> [AppleRuleViolation] {
    var found: Set<AppleRuleViolation> = []
    if !request.customerConsented {
      found.insert(.invalidCustomerConsented)
    }
    let percentage: PercentageField =
      request.consumptionPercentage.map { .integer($0) } ?? .absent
    found.formUnion(
      crossFieldViolations(
        deliveryStatus: request.deliveryStatus,
        percentage: percentage,
        refundPreference: request.refundPreference,
        context: context))
    return ordered(found)
  }

  /// What a body says about `consumptionPercentage`, including shapes a typed body cannot hold.
  enum PercentageField: Hashable {
    case absent
    case integer(Int)
    /// Present but null, fractional, out of Int range, or not a number.
    case invalid
  }

  /// The rules shared by the typed and raw entry points: ranges, and rules tying fields together
  /// or to the transaction.
  static func crossFieldViolations(
    deliveryStatus: DeliveryStatus?,
    percentage: PercentageField,
    refundPreference: RefundPreference?,
    context: ConsumptionValidationContext
  ) -> Set<AppleRuleViolation> {
    var found: Set<AppleRuleViolation> = []
    switch percentage {
    case .absent:
      break
    case .invalid:
      found.insert(.consumptionPercentageOutOfRange)
    case .integer(let value):
      if !(0...fullConsumption).contains(value) {
        found.insert(.consumptionPercentageOutOfRange)
      }
      if let deliveryStatus, deliveryStatus.isUndelivered, value != 0 {
        found.insert(.undeliveredConsumptionPercentageNonZero)
      }
    }
    if percentage != .absent, context.productType == .autoRenewable {
      found.insert(.consumptionPercentageAutoRenewableSubscription)
    }
    if refundPreference == .grantProrated, let productType = context.productType,
      productType != .autoRenewable
    {
      // Apple wants a strictly partial share: 0 or 100000 would mean no refund or a full one.
      let isPartial: Bool
      if case .integer(let value) = percentage {
        isPartial = value > 0 && value < fullConsumption
      } else {
        isPartial = false
      }
      if !isPartial {
        found.insert(.grantProratedConsumptionPercentage)
      }
    }
    switch context.ownershipType {
    case .familyShared: found.insert(.familyTransactionNotSupported)
    case .assigned: found.insert(.invalidAssignedTransactionNotSupported)
    case .purchased, nil: break
    }
    if context.isAdvancedCommerce { found.insert(.advancedCommerceTransactionNotSupported) }
    return found
  }

  static func ordered(_ found: Set<AppleRuleViolation>) -> [AppleRuleViolation] {
    // Most bodies break no rule: no list of every case to filter.
    guard !found.isEmpty else { return [] }
    return AppleRuleViolation.allCases.filter(found.contains)
  }
}
