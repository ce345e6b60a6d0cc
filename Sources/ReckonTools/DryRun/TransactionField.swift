import Foundation
import ReckonAppStore
import ReckonEngine

/// A member of a decoded transaction object the fast line decoder reads, with how its value is
/// read; the same keys and conversions as `JWSTransactionDecodedPayload`'s `Decodable`.
enum TransactionField: Int, CaseIterable {
  // Listed in the order lines usually hold them, so the scan finds common keys early.
  case transactionId, originalTransactionId, bundleId, productId, purchaseDate
  case originalPurchaseDate, quantity, type, appAccountToken, inAppOwnershipType, signedDate
  case environment, transactionReason, storefront, storefrontId, price, currency
  case webOrderLineItemId, subscriptionGroupIdentifier, expiresDate, isUpgraded
  case offerType, offerIdentifier, offerDiscountType, appTransactionId, offerPeriod
  case revocationDate, revocationReason, revocationType, revocationPercentage, billingPlanType

  /// The fields by the length of their key: a key is compared only with keys as long as it.
  private static let byKeyLength: [[TransactionField]] = {
    var table = [[TransactionField]](repeating: [], count: 32)
    for field in allCases { table[field.key.utf8CodeUnitCount].append(field) }
    return table
  }()

  /// The field whose key is `key`, if the decoder reads it.
  static func named(_ key: JSONKey) -> TransactionField? {
    let length = key.bytes.count
    guard length < byKeyLength.count else { return nil }
    for field in byKeyLength[length] where key.is(field.key) { return field }
    return nil
  }

  /// How a member's value is read.
  enum Kind {
    /// A short string shared through the string table.
    case text
    /// A string unique to the line (ids), not worth sharing.
    case unique
    /// UNIX milliseconds.
    case date
    /// A whole number.
    case integer
    /// `true` or `false`.
    case flag
    /// A UUID.
    case token
  }

  /// The member's key in the JSON object.
  var key: StaticString {
    switch self {
    case .transactionId: "transactionId"
    case .originalTransactionId: "originalTransactionId"
    case .bundleId: "bundleId"
    case .productId: "productId"
    case .purchaseDate: "purchaseDate"
    case .originalPurchaseDate: "originalPurchaseDate"
    case .quantity: "quantity"
    case .type: "type"
    case .appAccountToken: "appAccountToken"
    case .inAppOwnershipType: "inAppOwnershipType"
    case .signedDate: "signedDate"
    case .environment: "environment"
    case .transactionReason: "transactionReason"
    case .storefront: "storefront"
    case .storefrontId: "storefrontId"
    case .price: "price"
    case .currency: "currency"
    case .webOrderLineItemId: "webOrderLineItemId"
    case .subscriptionGroupIdentifier: "subscriptionGroupIdentifier"
    case .expiresDate: "expiresDate"
    case .isUpgraded: "isUpgraded"
    case .offerType: "offerType"
    case .offerIdentifier: "offerIdentifier"
    case .offerDiscountType: "offerDiscountType"
    case .appTransactionId: "appTransactionId"
    case .offerPeriod: "offerPeriod"
    case .revocationDate: "revocationDate"
    case .revocationReason: "revocationReason"
    case .revocationType: "revocationType"
    case .revocationPercentage: "revocationPercentage"
    case .billingPlanType: "billingPlanType"
    }
  }

  /// How the member's value is read.
  var kind: Kind {
    switch self {
    case .transactionId, .originalTransactionId: .unique
    case .purchaseDate, .originalPurchaseDate, .signedDate, .expiresDate, .revocationDate: .date
    case .quantity, .price, .offerType, .revocationReason, .revocationPercentage: .integer
    case .isUpgraded: .flag
    case .appAccountToken: .token
    default: .text
    }
  }

  /// Stores a string member.
  func setText(_ text: consuming String, in transaction: inout JWSTransactionDecodedPayload) {
    switch self {
    case .transactionId: transaction.transactionId = text
    case .originalTransactionId: transaction.originalTransactionId = text
    case .bundleId: transaction.bundleId = text
    case .productId: transaction.productId = text
    case .type: transaction.rawType = text
    case .inAppOwnershipType: transaction.rawInAppOwnershipType = text
    case .environment: transaction.rawEnvironment = text
    case .transactionReason: transaction.rawTransactionReason = text
    case .storefront: transaction.storefront = text
    case .storefrontId: transaction.storefrontId = text
    case .currency: transaction.currency = text
    case .webOrderLineItemId: transaction.webOrderLineItemId = text
    case .subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier = text
    case .offerIdentifier: transaction.offerIdentifier = text
    case .offerDiscountType: transaction.rawOfferDiscountType = text
    case .appTransactionId: transaction.appTransactionId = text
    case .offerPeriod: transaction.offerPeriod = text
    case .revocationType: transaction.rawRevocationType = text
    case .billingPlanType: transaction.rawBillingPlanType = text
    default: break
    }
  }

  /// Stores a date member.
  func setDate(_ date: Date, in transaction: inout JWSTransactionDecodedPayload) {
    switch self {
    case .purchaseDate: transaction.purchaseDate = date
    case .originalPurchaseDate: transaction.originalPurchaseDate = date
    case .signedDate: transaction.signedDate = date
    case .expiresDate: transaction.expiresDate = date
    case .revocationDate: transaction.revocationDate = date
    default: break
    }
  }

  /// Stores a whole-number member other than `price`.
  func setInteger(_ number: Int, in transaction: inout JWSTransactionDecodedPayload) {
    switch self {
    case .quantity: transaction.quantity = number
    case .offerType: transaction.rawOfferType = number
    case .revocationReason: transaction.rawRevocationReason = number
    case .revocationPercentage: transaction.revocationPercentage = number
    default: break
    }
  }
}
