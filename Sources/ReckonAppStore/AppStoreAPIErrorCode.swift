/// App Store Server API error codes Reckon acts on; any other number is kept in `.unknown`.
public enum AppStoreAPIErrorCode: Hashable, Sendable {
  /// 4000000 GeneralBadRequestError.
  case generalBadRequest
  /// 4000006 InvalidTransactionIdError.
  case invalidTransactionId
  /// 4000035 InvalidCustomerConsentedError.
  case invalidCustomerConsented
  /// 4000036 InvalidDeliveryStatusError.
  case invalidDeliveryStatus
  /// 4000041 InvalidSampleContentProvidedError.
  case invalidSampleContentProvided
  /// 4000044 InvalidRefundPreferenceError.
  case invalidRefundPreference
  /// 4000183 InvalidAppAccountTokenUUIDError.
  case invalidAppAccountTokenUUID
  /// 4000185 FamilyTransactionNotSupportedError.
  case familyTransactionNotSupported
  /// 4000187 TransactionIdIsNotOriginalTransactionIdError.
  case transactionIdIsNotOriginalTransactionId
  /// 4000209 ConsumptionPercentageAutoRenewableSubscriptionError.
  case consumptionPercentageAutoRenewableSubscription
  /// 4000227 InvalidAssignedTransactionNotSupportedError.
  case invalidAssignedTransactionNotSupported
  /// 4040002 AccountNotFoundRetryableError.
  case accountNotFoundRetryable
  /// 4040004 AppNotFoundRetryableError.
  case appNotFoundRetryable
  /// 4040006 OriginalTransactionIdNotFoundRetryableError.
  case originalTransactionIdNotFoundRetryable
  /// 4040010 TransactionIdNotFoundError.
  case transactionIdNotFound
  /// 4040019 AppTransactionDoesNotExistError.
  case appTransactionDoesNotExist
  /// 4290000 RateLimitExceededError; wait for `Retry-After` before trying again.
  case rateLimitExceeded
  /// 5000000 GeneralInternalError.
  case generalInternal
  /// 5000001 GeneralInternalRetryableError.
  case generalInternalRetryable
  /// A code this build does not know, kept as Apple sent it.
  case unknown(Int)

  private static let known: [(AppStoreAPIErrorCode, Int, String)] = [
    (.generalBadRequest, 4_000_000, "GeneralBadRequestError"),
    (.invalidTransactionId, 4_000_006, "InvalidTransactionIdError"),
    (.invalidCustomerConsented, 4_000_035, "InvalidCustomerConsentedError"),
    (.invalidDeliveryStatus, 4_000_036, "InvalidDeliveryStatusError"),
    (.invalidSampleContentProvided, 4_000_041, "InvalidSampleContentProvidedError"),
    (.invalidRefundPreference, 4_000_044, "InvalidRefundPreferenceError"),
    (.invalidAppAccountTokenUUID, 4_000_183, "InvalidAppAccountTokenUUIDError"),
    (.familyTransactionNotSupported, 4_000_185, "FamilyTransactionNotSupportedError"),
    (
      .transactionIdIsNotOriginalTransactionId, 4_000_187,
      "TransactionIdIsNotOriginalTransactionIdError"
    ),
    (
      .consumptionPercentageAutoRenewableSubscription, 4_000_209,
      "ConsumptionPercentageAutoRenewableSubscriptionError"
    ),
    (
      .invalidAssignedTransactionNotSupported, 4_000_227,
      "InvalidAssignedTransactionNotSupportedError"
    ),
    (.accountNotFoundRetryable, 4_040_002, "AccountNotFoundRetryableError"),
    (.appNotFoundRetryable, 4_040_004, "AppNotFoundRetryableError"),
    (
      .originalTransactionIdNotFoundRetryable, 4_040_006,
      "OriginalTransactionIdNotFoundRetryableError"
    ),
    (.transactionIdNotFound, 4_040_010, "TransactionIdNotFoundError"),
    (.appTransactionDoesNotExist, 4_040_019, "AppTransactionDoesNotExistError"),
    (.rateLimitExceeded, 4_290_000, "RateLimitExceededError"),
    (.generalInternal, 5_000_000, "GeneralInternalError"),
    (.generalInternalRetryable, 5_000_001, "GeneralInternalRetryableError"),
  ]

  /// Maps Apple's number to a case; unknown numbers become `.unknown(rawCode)`.
  public init(rawCode: Int) {
    self = Self.known.first(where: { $0.1 == rawCode })?.0 ?? .unknown(rawCode)
  }

  /// Apple's number for this code.
  public var rawCode: Int {
    if case .unknown(let code) = self { return code }
    return Self.known.first(where: { $0.0 == self })!.1
  }

  /// Apple's error object name, or nil for an unknown code.
  public var errorName: String? {
    Self.known.first(where: { $0.0 == self })?.2
  }

  /// Whether Apple's code itself says trying the same request again later can succeed.
  ///
  /// Only the rate limit and the codes Apple names "Retryable" qualify. A sender may
  /// still choose to retry HTTP 5xx by status alone; that policy lives with the sender.
  public var isRetryable: Bool {
    switch self {
    case .rateLimitExceeded, .generalInternalRetryable, .accountNotFoundRetryable,
      .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable:
      true
    default: false
    }
  }
}
