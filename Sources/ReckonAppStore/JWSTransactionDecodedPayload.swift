import Foundation
import ReckonSupport

/// A decoded signed transaction (the middle of `signedTransactionInfo`).
///
/// Enum-valued fields keep Apple's raw value beside the typed view so that values Apple adds
/// later decode and are kept. `advancedCommerceInfo` is kept as JSON: only its presence matters
/// here (Apple takes no consumption information for Advanced Commerce transactions).
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
  /// The original transaction identifier of the purchase.
  public var originalTransactionId: String?
  /// The transaction identifier; the one a consumption reply is sent for.
  public var transactionId: String?
  /// The identifier of subscription purchase events across devices.
  public var webOrderLineItemId: String?
  /// The app's bundle identifier.
  public var bundleId: String?
  /// The product identifier from App Store Connect.
  public var productId: String?
  /// The subscription group the product belongs to.
  public var subscriptionGroupIdentifier: String?
  /// When the App Store charged the customer.
  public var purchaseDate: Date?
  /// The purchase date of the original transaction.
  public var originalPurchaseDate: Date?
  /// When a subscription expires or renews.
  public var expiresDate: Date?
  /// How many consumables were bought.
  public var quantity: Int?
  /// The product type as Apple sent it.
  public var rawType: String?
  /// The UUID the app attached to the purchase to find its customer.
  public var appAccountToken: UUID?
  /// The ownership type as Apple sent it.
  public var rawInAppOwnershipType: String?
  /// When Apple signed the transaction.
  public var signedDate: Date?
  /// The revocation reason as Apple sent it.
  public var rawRevocationReason: Int?
  /// When the App Store refunded or revoked the transaction; set means access must go.
  public var revocationDate: Date?
  /// Whether the customer upgraded to another subscription.
  public var isUpgraded: Bool?
  /// The offer type as Apple sent it.
  public var rawOfferType: Int?
  /// The offer or promo code identifier.
  public var offerIdentifier: String?
  /// The environment as Apple sent it.
  public var rawEnvironment: String?
  /// The storefront's three-letter country code.
  public var storefront: String?
  /// Apple's storefront identifier.
  public var storefrontId: String?
  /// The transaction reason as Apple sent it.
  public var rawTransactionReason: String?
  /// The ISO 4217 currency of `price`.
  public var currency: String?
  /// The price in milliunits of `currency`.
  public var price: Int64?
  /// The offer discount type as Apple sent it.
  public var rawOfferDiscountType: String?
  /// The app transaction identifier of the customer's app download.
  public var appTransactionId: String?
  /// The ISO 8601 duration of the offer.
  public var offerPeriod: String?
  /// The revocation type as Apple sent it.
  public var rawRevocationType: String?
  /// The share of the transaction refunded or revoked, in milliunits.
  public var revocationPercentage: Int?
  /// The billing plan type as Apple sent it.
  public var rawBillingPlanType: String?
  /// The commitment details of a subscription with a commitment.
  public var commitmentInfo: TransactionCommitmentInfo?
  /// The seats of a multiseat purchase; `quantity` is then the number of seats.
  public var multiSeatInfo: TransactionMultiSeatInfo?

  /// Creates an empty payload; set the fields you need.
  public init() {}

  /// The product type, or nil if absent or unknown (see `rawType`).
  public var type: ProductType? {
    get { rawType.flatMap(ProductType.init(rawValue:)) }
    set { rawType = newValue?.rawValue }
  }

  /// The ownership type, or nil if absent or unknown (see `rawInAppOwnershipType`).
  public var inAppOwnershipType: InAppOwnershipType? {
    get { rawInAppOwnershipType.flatMap(InAppOwnershipType.init(rawValue:)) }
    set { rawInAppOwnershipType = newValue?.rawValue }
  }

  /// The revocation reason, or nil if absent or unknown (see `rawRevocationReason`).
  public var revocationReason: RevocationReason? {
    get { rawRevocationReason.flatMap(RevocationReason.init(rawValue:)) }
    set { rawRevocationReason = newValue?.rawValue }
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

  /// The transaction reason, or nil if absent or unknown (see `rawTransactionReason`).
  public var transactionReason: TransactionReason? {
    get { rawTransactionReason.flatMap(TransactionReason.init(rawValue:)) }
    set { rawTransactionReason = newValue?.rawValue }
  }

  /// The offer discount type, or nil if absent or unknown (see `rawOfferDiscountType`).
  public var offerDiscountType: OfferDiscountType? {
    get { rawOfferDiscountType.flatMap(OfferDiscountType.init(rawValue:)) }
    set { rawOfferDiscountType = newValue?.rawValue }
  }

  /// The revocation type, or nil if absent or unknown (see `rawRevocationType`).
  public var revocationType: RevocationType? {
    get { rawRevocationType.flatMap(RevocationType.init(rawValue:)) }
    set { rawRevocationType = newValue?.rawValue }
  }

  /// The billing plan type, or nil if absent or unknown (see `rawBillingPlanType`).
  public var billingPlanType: BillingPlanType? {
    get { rawBillingPlanType.flatMap(BillingPlanType.init(rawValue:)) }
    set { rawBillingPlanType = newValue?.rawValue }
  }

  /// The Advanced Commerce API's details of the transaction, as Apple sent them; present only
  /// for a purchase made through that API.
  public var advancedCommerceInfo: JSONValue?

  /// Whether the purchase was made through the Advanced Commerce API.
  public var isAdvancedCommerce: Bool { advancedCommerceInfo != nil }

  enum CodingKeys: String, CodingKey {
    case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId
    case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity
    case rawType = "type"
    case appAccountToken
    case rawInAppOwnershipType = "inAppOwnershipType"
    case signedDate
    case rawRevocationReason = "revocationReason"
    case revocationDate, isUpgraded
    case rawOfferType = "offerType"
    case offerIdentifier
    case rawEnvironment = "environment"
    case storefront, storefrontId
    case rawTransactionReason = "transactionReason"
    case currency, price
    case rawOfferDiscountType = "offerDiscountType"
    case appTransactionId, offerPeriod
    case rawRevocationType = "revocationType"
    case revocationPercentage
    case rawBillingPlanType = "billingPlanType"
    case commitmentInfo, multiSeatInfo
    case advancedCommerceInfo
  }
}
