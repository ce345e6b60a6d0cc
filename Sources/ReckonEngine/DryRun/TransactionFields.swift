import Foundation
import ReckonAppStore

/// Reads one member of a decoded transaction object into `JWSTransactionDecodedPayload`, by the
/// same keys and conversions as its `Decodable` conformance; false for a key or value it does
/// not read plainly.
enum TransactionFields {
  static func read(
    _ key: JSONKey, _ scanner: inout JSONLineScanner,
    into transaction: inout JWSTransactionDecodedPayload, strings: inout StringTable
  ) -> Bool {
    if let path = stringFields.first(where: { key.is($0.key) })?.path {
      guard let text = strings.read(&scanner) else { return false }
      transaction[keyPath: path] = text
      return true
    }
    if let path = dateFields.first(where: { key.is($0.key) })?.path {
      guard let milliseconds = scanner.integer() else { return false }
      transaction[keyPath: path] = NotificationLineDecoder.date(milliseconds)
      return true
    }
    if let path = intFields.first(where: { key.is($0.key) })?.path {
      guard let number = scanner.integer() else { return false }
      transaction[keyPath: path] = Int(number)
      return true
    }
    if key.is("transactionId") || key.is("originalTransactionId") {
      guard let text = scanner.string() else { return false }
      if key.is("transactionId") {
        transaction.transactionId = text
      } else {
        transaction.originalTransactionId = text
      }
      return true
    }
    if key.is("price") {
      transaction.price = scanner.integer()
      return transaction.price != nil
    }
    if key.is("isUpgraded") {
      transaction.isUpgraded = scanner.bool()
      return transaction.isUpgraded != nil
    }
    if key.is("appAccountToken") {
      guard let text = scanner.string(), let token = UUID(uuidString: text) else { return false }
      transaction.appAccountToken = token
      return true
    }
    return false
  }

  nonisolated(unsafe) private static let stringFields:
    [(key: StaticString, path: WritableKeyPath<JWSTransactionDecodedPayload, String?>)] = [
      ("bundleId", \.bundleId), ("productId", \.productId), ("type", \.rawType),
      ("inAppOwnershipType", \.rawInAppOwnershipType), ("environment", \.rawEnvironment),
      ("storefront", \.storefront), ("storefrontId", \.storefrontId),
      ("transactionReason", \.rawTransactionReason), ("currency", \.currency),
      ("webOrderLineItemId", \.webOrderLineItemId),
      ("subscriptionGroupIdentifier", \.subscriptionGroupIdentifier),
      ("offerIdentifier", \.offerIdentifier), ("offerDiscountType", \.rawOfferDiscountType),
      ("appTransactionId", \.appTransactionId), ("offerPeriod", \.offerPeriod),
      ("revocationType", \.rawRevocationType), ("billingPlanType", \.rawBillingPlanType),
    ]

  nonisolated(unsafe) private static let dateFields:
    [(key: StaticString, path: WritableKeyPath<JWSTransactionDecodedPayload, Date?>)] = [
      ("purchaseDate", \.purchaseDate), ("originalPurchaseDate", \.originalPurchaseDate),
      ("signedDate", \.signedDate), ("expiresDate", \.expiresDate),
      ("revocationDate", \.revocationDate),
    ]

  nonisolated(unsafe) private static let intFields:
    [(key: StaticString, path: WritableKeyPath<JWSTransactionDecodedPayload, Int?>)] = [
      ("quantity", \.quantity), ("revocationReason", \.rawRevocationReason),
      ("offerType", \.rawOfferType), ("revocationPercentage", \.revocationPercentage),
    ]
}
