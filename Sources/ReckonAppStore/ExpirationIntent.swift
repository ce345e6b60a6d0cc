/// Why an auto-renewable subscription expired.
public enum ExpirationIntent: Int, Codable, Hashable, Sendable, CaseIterable {
  /// The customer cancelled.
  case customerCancelled = 1
  /// A billing error.
  case billingError = 2
  /// The customer did not consent to a price increase.
  case customerDidNotConsentToPriceIncrease = 3
  /// The product was not available at renewal time.
  case productNotAvailable = 4
  /// Another reason.
  case other = 5
}
