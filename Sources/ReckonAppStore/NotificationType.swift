/// The event an App Store Server Notification V2 reports.
public enum NotificationType: String, Codable, Hashable, Sendable, CaseIterable {
  /// A customer subscribed to an auto-renewable subscription group.
  case subscribed = "SUBSCRIBED"
  /// The customer changed the subscription plan that takes effect at renewal.
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  /// The customer turned auto-renew on or off.
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  /// The customer redeemed a promotional offer or offer code.
  case offerRedeemed = "OFFER_REDEEMED"
  /// The subscription renewed.
  case didRenew = "DID_RENEW"
  /// The subscription expired.
  case expired = "EXPIRED"
  /// The subscription failed to renew because of a billing issue.
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  /// The billing grace period ended.
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  /// The system informed the customer of a price increase.
  case priceIncrease = "PRICE_INCREASE"
  /// The App Store refunded a transaction.
  case refund = "REFUND"
  /// The App Store declined a refund request.
  case refundDeclined = "REFUND_DECLINED"
  /// The customer asked for a refund and Apple asks for consumption data.
  case consumptionRequest = "CONSUMPTION_REQUEST"
  /// The App Store extended a subscription renewal date.
  case renewalExtended = "RENEWAL_EXTENDED"
  /// A family-shared or assigned purchase is no longer available to the customer.
  case revoke = "REVOKE"
  /// A test notification requested through the API.
  case test = "TEST"
  /// A mass renewal-date extension finished (subtype SUMMARY) or failed for one subscription.
  case renewalExtension = "RENEWAL_EXTENSION"
  /// The App Store reversed a refund after a dispute.
  case refundReversed = "REFUND_REVERSED"
  /// An external purchase token event.
  case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
  /// A customer bought a consumable, non-consumable or non-renewing subscription.
  case oneTimeCharge = "ONE_TIME_CHARGE"
  /// The customer withdrew consent for the app to receive their data.
  case rescindConsent = "RESCIND_CONSENT"
  /// The App Store took back seat claims of a group subscription with developer-hosted
  /// invitations (see `unclaimInfo`); nothing was refunded.
  case unclaimSeats = "UNCLAIM_SEATS"
}
