/// Whether the customer has responded to a subscription price increase.
public enum PriceIncreaseStatus: Int, Codable, Hashable, Sendable, CaseIterable {
  /// The customer has not responded.
  case customerHasNotResponded = 0
  /// The customer consented, or was notified of an increase that needs no consent.
  case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}
