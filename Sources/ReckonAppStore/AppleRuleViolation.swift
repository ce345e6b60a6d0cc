/// One reason Apple would answer HTTP 400 to a v2 consumption body, named after Apple's error object.
///
/// Cases are declared in the order validation reports them, so a list of violations is stable.
public enum AppleRuleViolation: Error, Hashable, Sendable, CaseIterable {
  /// The body is not a JSON object at all.
  case generalBadRequest
  /// `customerConsented` is missing, not a Boolean, or not `true`.
  case invalidCustomerConsented
  /// `deliveryStatus` is missing or not one of Apple's values.
  case invalidDeliveryStatus
  /// `sampleContentProvided` is missing or not a Boolean.
  case invalidSampleContentProvided
  /// `consumptionPercentage` is not an integer in 0...100000.
  case consumptionPercentageOutOfRange
  /// `deliveryStatus` is not DELIVERED but `consumptionPercentage` is not 0.
  case undeliveredConsumptionPercentageNonZero
  /// `consumptionPercentage` is present for an auto-renewable subscription.
  case consumptionPercentageAutoRenewableSubscription
  /// `refundPreference` is not one of Apple's values.
  case invalidRefundPreference
  /// GRANT_PRORATED for a consumable, non-consumable or non-renewing product without a percentage strictly between 0 and 100000.
  ///
  /// Apple documents this rule on the `consumptionPercentage` page but publishes no error object or
  /// number for it, so the name `GrantProratedConsumptionPercentageError` is Reckon's own
  /// (`isNamedByApple` is false). It is kept apart from `consumptionPercentageOutOfRange`
  /// because the fix differs: an absent or 0/100000 percentage is in range, yet wrong here.
  case grantProratedConsumptionPercentage
  /// The transaction came through Family Sharing, which the endpoint does not support.
  case familyTransactionNotSupported
  /// An organization or group assigned the transaction, which the endpoint does not support.
  case invalidAssignedTransactionNotSupported
  /// The purchase was made through the Advanced Commerce API, which the endpoint does not support.
  case advancedCommerceTransactionNotSupported

  /// Whether the rule is about the transaction, not the body: Apple takes no reply for it
  /// whatever the policy decides (family-shared, assigned and Advanced Commerce purchases).
  public var isAboutTheTransaction: Bool {
    switch self {
    case .familyTransactionNotSupported, .invalidAssignedTransactionNotSupported,
      .advancedCommerceTransactionNotSupported:
      true
    default: false
    }
  }

  /// Apple's error object name, or Reckon's own where Apple publishes none (see `isNamedByApple`).
  public var errorName: String {
    switch self {
    case .generalBadRequest: "GeneralBadRequestError"
    case .invalidCustomerConsented: "InvalidCustomerConsentedError"
    case .invalidDeliveryStatus: "InvalidDeliveryStatusError"
    case .invalidSampleContentProvided: "InvalidSampleContentProvidedError"
    case .consumptionPercentageOutOfRange: "ConsumptionPercentageOutOfRangeError"
    case .undeliveredConsumptionPercentageNonZero: "UndeliveredConsumptionPercentageNonZeroError"
    case .consumptionPercentageAutoRenewableSubscription:
      "ConsumptionPercentageAutoRenewableSubscriptionError"
    case .invalidRefundPreference: "InvalidRefundPreferenceError"
    case .grantProratedConsumptionPercentage: "GrantProratedConsumptionPercentageError"
    case .familyTransactionNotSupported: "FamilyTransactionNotSupportedError"
    case .invalidAssignedTransactionNotSupported: "InvalidAssignedTransactionNotSupportedError"
    case .advancedCommerceTransactionNotSupported: "AdvancedCommerceTransactionNotSupportedError"
    }
  }

  /// False only for the rule Apple documents without naming an error object.
  public var isNamedByApple: Bool { self != .grantProratedConsumptionPercentage }

  /// Apple's numeric `errorCode`, or nil where Apple publishes no number.
  public var errorCode: Int? {
    switch self {
    case .generalBadRequest: 4_000_000
    case .invalidCustomerConsented: 4_000_035
    case .invalidDeliveryStatus: 4_000_036
    case .invalidSampleContentProvided: 4_000_041
    case .invalidRefundPreference: 4_000_044
    case .familyTransactionNotSupported: 4_000_185
    case .consumptionPercentageAutoRenewableSubscription: 4_000_209
    case .invalidAssignedTransactionNotSupported: 4_000_227
    // Apple names the Advanced Commerce error on the endpoint's page without a number.
    case .consumptionPercentageOutOfRange, .undeliveredConsumptionPercentageNonZero,
      .grantProratedConsumptionPercentage, .advancedCommerceTransactionNotSupported:
      nil
    }
  }

  /// `message`, with Apple's error name after it where Apple publishes one: the form every
  /// report and error uses, since Reckon's own names would send a reader searching Apple's
  /// documentation in vain.
  public var inWords: String { isNamedByApple ? "\(message) (\(errorName))" : message }

  /// One sentence saying what is wrong and what Apple expects.
  public var message: String {
    switch self {
    case .generalBadRequest:
      "The consumption body must be a JSON object."
    case .invalidCustomerConsented:
      "customerConsented must be the Boolean true; without the customer's consent, don't reply at all."
    case .invalidDeliveryStatus:
      "deliveryStatus is required and must be DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE or UNDELIVERED_OTHER."
    case .invalidSampleContentProvided:
      "sampleContentProvided is required and must be a Boolean."
    case .consumptionPercentageOutOfRange:
      "consumptionPercentage must be an integer from 0 to 100000 milliunits (94% is 94000, not 94)."
    case .undeliveredConsumptionPercentageNonZero:
      "consumptionPercentage must be 0 when deliveryStatus is not DELIVERED."
    case .consumptionPercentageAutoRenewableSubscription:
      "consumptionPercentage must be left out for auto-renewable subscriptions; Apple works it out from elapsed time."
    case .invalidRefundPreference:
      "refundPreference, when present, must be DECLINE, GRANT_FULL or GRANT_PRORATED."
    case .grantProratedConsumptionPercentage:
      "GRANT_PRORATED for a consumable, non-consumable or non-renewing product needs a consumptionPercentage greater than 0 and less than 100000."
    case .familyTransactionNotSupported:
      "Family Sharing transactions can't be answered with Send Consumption Information."
    case .invalidAssignedTransactionNotSupported:
      "Transactions assigned by an organization or group can't be answered with Send Consumption Information."
    case .advancedCommerceTransactionNotSupported:
      "Advanced Commerce API transactions can't be answered with Send Consumption Information."
    }
  }
}
