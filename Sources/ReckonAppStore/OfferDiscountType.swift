/// The payment mode of an offer.
public enum OfferDiscountType: String, Codable, Hashable, Sendable, CaseIterable {
  /// A free trial.
  case freeTrial = "FREE_TRIAL"
  /// A discounted price for each period.
  case payAsYouGo = "PAY_AS_YOU_GO"
  /// One discounted payment up front.
  case payUpFront = "PAY_UP_FRONT"
  /// A one-time discount on a consumable, non-consumable or non-renewing product.
  case oneTime = "ONE_TIME"
}
