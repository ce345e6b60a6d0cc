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
      guard let raw = scanner.rawString(), let token = TransactionFields.uuid(raw) else {
        return false
      }
      transaction.appAccountToken = token
      return true
    }
    return false
  }

  /// `UUID(uuidString:)` without Foundation's parser: 8-4-4-4-12 hex digits, either case; nil
  /// for anything else (the general decoder then reports it).
  static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard text.count == 36 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    var position = 0
    while position < 36 {
      if position == 8 || position == 13 || position == 18 || position == 23 {
        guard text[position] == UInt8(ascii: "-") else { return nil }
        position += 1
        continue
      }
      guard let high = hex(text[position]), let low = hex(text[position + 1]) else { return nil }
      bytes.append(high << 4 | low)
      position += 2
    }
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
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
