import Foundation

/// A notification as the App Store would send it, for `reckon simulate`, tests and benchmarks:
/// the payload and its transaction, each signed by a `LocalCertificateAuthority`. Defaults
/// describe the bundled example: a CONSUMPTION_REQUEST for transaction 2000000812345678 of
/// com.example.coins in Production.
public struct SimulatedNotification: Hashable, Sendable {
  /// The notification type, e.g. `CONSUMPTION_REQUEST` or `REFUND`.
  public var type = "CONSUMPTION_REQUEST"
  /// The notification's UUID; retries keep it, a new request gets a new one.
  public var notificationUUID = UUID().uuidString.lowercased()
  /// The app's bundle id.
  public var bundleId = "com.example.coins"
  /// The App Apple ID (Production only).
  public var appAppleId: Int64? = 1_234_567_890
  /// The environment, as Apple writes it.
  public var environment = "Production"
  /// The customer's reason (CONSUMPTION_REQUEST only).
  public var reason = "UNINTENDED_PURCHASE"
  /// The transaction.
  public var transactionId = "2000000812345678"
  /// The original transaction (defaults to `transactionId`).
  public var originalTransactionId: String?
  /// The product.
  public var productId = "com.example.coins.pack500"
  /// Apple's product type, e.g. `Consumable`.
  public var productType = ProductType.consumable.rawValue
  /// The app account token, when the purchase set one.
  public var appAccountToken: String? = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
  /// When the purchase was made.
  public var purchaseDate = Date(timeIntervalSince1970: 1_793_263_200)
  /// When Apple signed the notification.
  public var signedDate = Date()
  /// When the purchase was refunded or revoked (REFUND, REVOKE).
  public var revocationDate: Date?
  /// The notification's subtype, e.g. `SEATS` on a seat-based REFUND.
  public var subtype: String?
  /// How the customer holds the purchase: `PURCHASED`, `FAMILY_SHARED` or `ASSIGNED`.
  public var ownershipType = InAppOwnershipType.purchased.rawValue
  /// The number of items, or of seats in a multiseat purchase.
  public var quantity = 1
  /// The seats a seat-based refund took back; when set, the transaction is a multiseat purchase
  /// of `quantity` seats and carries `multiSeatInfo`.
  public var revokedSeatQuantity: Int?
  /// Apple's revocation type and percentage on a REFUND, e.g. `REFUND_PRORATED` and 40000.
  public var revocationType: String?
  /// The share refunded, in milliunits (REFUND_PRORATED).
  public var revocationPercentage: Int?
  /// The seat claims an UNCLAIM_SEATS takes back; when set, the payload carries `unclaimInfo`
  /// in place of `data`.
  public var unclaimSeatIds: [String]?

  /// The example notification; change what you need.
  public init() {}

  /// The body Apple POSTs, `{"signedPayload": "..."}`, signed by `authority`.
  public func body(signedBy authority: LocalCertificateAuthority) throws(SigningError) -> Data {
    let transaction = try authority.sign(payload: Self.json(transactionPayload()))
    let signed = try authority.sign(payload: Self.json(notificationPayload(transaction)))
    return Self.json(["signedPayload": signed])
  }

  /// A seat-based refund of `revoked` of `seats` seats: a REFUND with subtype SEATS whose
  /// transaction stays valid.
  public static func seatRefund(revoked: Int, of seats: Int) -> SimulatedNotification {
    var notification = SimulatedNotification()
    notification.type = NotificationType.refund.rawValue
    notification.subtype = Subtype.seats.rawValue
    notification.productType = ProductType.autoRenewable.rawValue
    notification.quantity = seats
    notification.revokedSeatQuantity = revoked
    return notification
  }

  /// The decoded notification, with `signedTransaction` in `data.signedTransactionInfo`.
  public func notificationPayload(_ signedTransaction: String) -> [String: any Sendable] {
    var data: [String: any Sendable] = [
      "bundleId": bundleId, "environment": environment, "signedTransactionInfo": signedTransaction,
      "bundleVersion": "1.0",
    ]
    if let appAppleId { data["appAppleId"] = appAppleId }
    if type == "CONSUMPTION_REQUEST" { data["consumptionRequestReason"] = reason }
    var payload: [String: any Sendable] = [
      "notificationType": type, "notificationUUID": notificationUUID, "version": "2.0",
      "signedDate": Self.milliseconds(signedDate),
    ]
    if let subtype { payload["subtype"] = subtype }
    if let unclaimSeatIds {
      var unclaim: [String: any Sendable] = [
        "bundleId": bundleId, "environment": environment,
        "originalTransactionId": originalTransactionId ?? transactionId,
        "unclaimSeatIds": unclaimSeatIds,
      ]
      if let appAppleId { unclaim["appAppleId"] = appAppleId }
      payload["unclaimInfo"] = unclaim
    } else {
      payload["data"] = data
    }
    return payload
  }

  /// The decoded transaction.
  public func transactionPayload() -> [String: any Sendable] {
    var payload: [String: any Sendable] = [
      "transactionId": transactionId,
      "originalTransactionId": originalTransactionId ?? transactionId,
      "bundleId": bundleId, "productId": productId, "type": productType, "quantity": quantity,
      "purchaseDate": Self.milliseconds(purchaseDate),
      "originalPurchaseDate": Self.milliseconds(purchaseDate),
      "inAppOwnershipType": ownershipType, "signedDate": Self.milliseconds(signedDate),
      "environment": environment, "transactionReason": "PURCHASE", "storefront": "USA",
      "storefrontId": "143441", "price": 9_990, "currency": "USD",
    ]
    if let appAccountToken { payload["appAccountToken"] = appAccountToken }
    if let revocationDate {
      payload["revocationDate"] = Self.milliseconds(revocationDate)
      payload["revocationReason"] = 0
    }
    if let revocationType { payload["revocationType"] = revocationType }
    if let revocationPercentage { payload["revocationPercentage"] = revocationPercentage }
    if let revokedSeatQuantity {
      payload["multiSeatInfo"] =
        [
          "invitationManagement": "APPLE", "revokedSeatQuantity": revokedSeatQuantity,
          "priceTiers": [["tierPrice": 9_990, "tierQuantity": quantity] as [String: any Sendable]],
        ] as [String: any Sendable]
    }
    return payload
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000).rounded())
  }

  private static func json(_ object: [String: any Sendable]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  }
}
