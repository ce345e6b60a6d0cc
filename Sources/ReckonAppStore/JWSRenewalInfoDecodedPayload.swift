import Foundation

/// A decoded signed renewal info (the middle of `signedRenewalInfo`), main fields only.
///
/// `advancedCommerceInfo` and `commitmentInfo` are not modelled; unknown keys are ignored.
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
  /// The expiration intent as Apple sent it.
  public var rawExpirationIntent: Int?
  /// The original transaction identifier of the subscription.
  public var originalTransactionId: String?
  /// The product that renews at the next billing period.
  public var autoRenewProductId: String?
  /// The current product.
  public var productId: String?
  /// The auto-renew status as Apple sent it.
  public var rawAutoRenewStatus: Int?
  /// Whether the App Store is still trying to renew after a billing failure.
  public var isInBillingRetryPeriod: Bool?
  /// The price increase status as Apple sent it.
  public var rawPriceIncreaseStatus: Int?
  /// When the billing grace period ends.
  public var gracePeriodExpiresDate: Date?
  /// The offer type as Apple sent it.
  public var rawOfferType: Int?
  /// The offer or promo code identifier.
  public var offerIdentifier: String?
  /// When Apple signed the renewal info.
  public var signedDate: Date?
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// When the latest run of continuous subscription began.
  public var recentSubscriptionStartDate: Date?
  /// When the subscription next renews.
  public var renewalDate: Date?
  /// The renewal price in milliunits of `currency`.
  public var renewalPrice: Int64?
  /// The ISO 4217 currency of `renewalPrice`.
  public var currency: String?
  /// The offer discount type as Apple sent it.
  public var rawOfferDiscountType: String?
  /// Win-back offers the customer may redeem.
  public var eligibleWinBackOfferIds: [String]?
  /// The app transaction identifier of the customer's app download.
  public var appTransactionId: String?
  /// The ISO 8601 duration of the offer.
  public var offerPeriod: String?
  /// The UUID the app attached to the purchase to find its customer.
  public var appAccountToken: UUID?
  /// The billing plan type at renewal as Apple sent it.
  public var rawRenewalBillingPlanType: String?

  /// Creates an empty payload; set the fields you need.
  public init() {}

  /// The expiration intent, or nil if absent or unknown (see `rawExpirationIntent`).
  public var expirationIntent: ExpirationIntent? {
    get { rawExpirationIntent.flatMap(ExpirationIntent.init(rawValue:)) }
    set { rawExpirationIntent = newValue?.rawValue }
  }

  /// The auto-renew status, or nil if absent or unknown (see `rawAutoRenewStatus`).
  public var autoRenewStatus: AutoRenewStatus? {
    get { rawAutoRenewStatus.flatMap(AutoRenewStatus.init(rawValue:)) }
    set { rawAutoRenewStatus = newValue?.rawValue }
  }

  /// The price increase status, or nil if absent or unknown (see `rawPriceIncreaseStatus`).
  public var priceIncreaseStatus: PriceIncreaseStatus? {
    get { rawPriceIncreaseStatus.flatMap(PriceIncreaseStatus.init(rawValue:)) }
    set { rawPriceIncreaseStatus = newValue?.rawValue }
  }

  /// The offer type, or nil if absent or unknown (see `rawOfferType`).
  public var offerType: OfferType? {
    get { rawOfferType.flatMap(OfferType.init(rawValue:)) }
    set { rawOfferType = newValue?.rawValue }
  }

  /// The environment, or nil if absent or unknown (see `rawEnvironment`).
  public var environment: AppStoreEnvironment? {
    get { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
    set { rawEnvironment = newValue?.rawValue }
  }

  /// The offer discount type, or nil if absent or unknown (see `rawOfferDiscountType`).
  public var offerDiscountType: OfferDiscountType? {
    get { rawOfferDiscountType.flatMap(OfferDiscountType.init(rawValue:)) }
    set { rawOfferDiscountType = newValue?.rawValue }
  }

  /// The billing plan type at renewal, or nil if absent or unknown (see `rawRenewalBillingPlanType`).
  public var renewalBillingPlanType: BillingPlanType? {
    get { rawRenewalBillingPlanType.flatMap(BillingPlanType.init(rawValue:)) }
    set { rawRenewalBillingPlanType = newValue?.rawValue }
  }

  enum CodingKeys: String, CodingKey {
    case rawExpirationIntent = "expirationIntent"
    case originalTransactionId, autoRenewProductId, productId
    case rawAutoRenewStatus = "autoRenewStatus"
    case isInBillingRetryPeriod
    case rawPriceIncreaseStatus = "priceIncreaseStatus"
    case gracePeriodExpiresDate
    case rawOfferType = "offerType"
    case offerIdentifier, signedDate
    case rawEnvironment = "environment"
    case recentSubscriptionStartDate, renewalDate, renewalPrice, currency
    case rawOfferDiscountType = "offerDiscountType"
    case eligibleWinBackOfferIds, appTransactionId, offerPeriod, appAccountToken
    case rawRenewalBillingPlanType = "renewalBillingPlanType"
  }
}
