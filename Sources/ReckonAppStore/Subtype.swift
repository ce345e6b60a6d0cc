/// Details that refine some V2 notification types.
public enum Subtype: String, Codable, Hashable, Sendable, CaseIterable {
  /// A first purchase of a subscription group.
  case initialBuy = "INITIAL_BUY"
  /// A resubscription after expiry.
  case resubscribe = "RESUBSCRIBE"
  /// A downgrade within the subscription group.
  case downgrade = "DOWNGRADE"
  /// An upgrade within the subscription group.
  case upgrade = "UPGRADE"
  /// Auto-renew turned on.
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  /// Auto-renew turned off, including when the customer requests a refund in the app.
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  /// The subscription expired after the customer turned off auto-renew.
  case voluntary = "VOLUNTARY"
  /// The subscription expired after billing retry ended.
  case billingRetry = "BILLING_RETRY"
  /// The customer did not consent to a price increase.
  case priceIncrease = "PRICE_INCREASE"
  /// The subscription is in its billing grace period.
  case gracePeriod = "GRACE_PERIOD"
  /// A price increase awaits the customer's response.
  case pending = "PENDING"
  /// The customer accepted a price increase.
  case accepted = "ACCEPTED"
  /// A renewal succeeded after earlier billing failures.
  case billingRecovery = "BILLING_RECOVERY"
  /// The product was not for sale at renewal time.
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  /// A mass renewal-date extension finished.
  case summary = "SUMMARY"
  /// A renewal-date extension failed for one subscription.
  case failure = "FAILURE"
  /// An external purchase token was not reported in time.
  case unreported = "UNREPORTED"
  /// On a REFUND: some seats of a multiseat purchase were refunded and the transaction stays
  /// valid for the others (see `revokedSeatQuantity`); not a refund of the transaction.
  case seats = "SEATS"
}
