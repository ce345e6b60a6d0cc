import Foundation
import ReckonAppStore

/// Notifications signed the way the App Store's arrive: the payload, its transaction and a
/// subscription's renewal info each a compact JWS whose header carries Apple's own certificate
/// chain (the receipt-signing leaf, WWDR G6 and Root CA G3), so they are as large as real ones
/// and repeat the same chain three times. Signed by a local key, so they do not verify: for
/// what stores and measures them, not for the verifier.
public struct AppleShapedNotification: Sendable {
  /// The chain every JWS carries, leaf first.
  public let chain: [X509Certificate]
  private let authority: LocalCertificateAuthority

  /// Loads Apple's chain from Tests/Fixtures/apple and makes a local signing key.
  public init() throws {
    let leaf = try X509Certificate(pemOrDER: AppleFixtures.data("AppStoreReceiptSigning-leaf.pem"))
    let intermediate = try X509Certificate(pemOrDER: AppleFixtures.data("AppleWWDRCA-G6.pem"))
    guard let leaf, let intermediate, let root = AppleRootCertificates.defaultRoots().first else {
      throw CocoaError(.fileReadCorruptFile)
    }
    chain = [leaf, intermediate, root]
    authority = try LocalCertificateAuthority(name: "Apple-shaped")
  }

  /// The body Apple POSTs for `notification`, `{"signedPayload": "..."}`, with a renewal info
  /// beside the transaction.
  public func body(_ notification: SimulatedNotification) throws -> Data {
    let transaction = try sign(notification.transactionPayload())
    let renewal = try sign(renewalPayload(notification))
    var payload = notification.notificationPayload(transaction)
    var data = payload["data"] as? [String: any Sendable] ?? [:]
    data["signedRenewalInfo"] = renewal
    data["status"] = 1
    payload["data"] = data
    return Self.json(["signedPayload": try sign(payload)])
  }

  private func sign(_ payload: [String: any Sendable]) throws -> String {
    try authority.sign(payload: Self.json(payload), x5c: chain)
  }

  /// A renewal info as Apple signs one for a monthly subscription.
  private func renewalPayload(_ notification: SimulatedNotification) -> [String: any Sendable] {
    let signed = Int64(notification.signedDate.timeIntervalSince1970 * 1_000)
    let purchased = Int64(notification.purchaseDate.timeIntervalSince1970 * 1_000)
    return [
      "originalTransactionId": notification.originalTransactionId ?? notification.transactionId,
      "autoRenewProductId": notification.productId, "productId": notification.productId,
      "autoRenewStatus": 1, "signedDate": signed, "environment": notification.environment,
      "recentSubscriptionStartDate": purchased, "renewalDate": purchased + 2_592_000_000,
      "renewalPrice": 9_990, "currency": "USD", "appTransactionId": "704289572311808720",
      "eligibleWinBackOfferIds": [String](),
    ]
  }

  private static func json(_ object: [String: any Sendable]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  }
}
