import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonState
import ReckonSupport

/// One CONSUMPTION_REQUEST, decoded (and, from the webhook, verified), with its transaction and
/// the time Reckon received it, which is the decision's `now`.
public struct RefundRequest: Hashable, Sendable, ReplyRequest {
  /// The notification payload.
  public let notification: ResponseBodyV2DecodedPayload
  /// The transaction the customer wants refunded.
  public let transaction: JWSTransactionDecodedPayload
  /// When the notification was received: the decision's `now`.
  public let receivedAt: Date

  /// Creates a request from its decoded parts.
  public init(
    notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload,
    receivedAt: Date
  ) {
    self.notification = notification
    self.transaction = transaction
    self.receivedAt = receivedAt
  }

  /// The request a verified notification makes, received at `receivedAt`, or else when Apple
  /// signed it; nil when it carries no transaction or neither time is known.
  public init?(_ verified: VerifiedNotification, receivedAt: Date? = nil) {
    guard let transaction = verified.transaction,
      let receivedAt = receivedAt ?? verified.payload.signedDate
    else { return nil }
    self.init(notification: verified.payload, transaction: transaction, receivedAt: receivedAt)
  }

  /// The transaction to answer for: the path parameter of Send Consumption Information.
  public var transactionId: String? { transaction.transactionId }

  /// When the original purchase was made: the transaction's `originalPurchaseDate`, or for a
  /// first purchase that does not carry one, its own date. Nil for a renewal (or a transaction
  /// of another original) that does not say: its own date would make a long subscriber new.
  public var originalPurchaseDate: Date? {
    if let original = transaction.originalPurchaseDate { return original }
    let isRenewal =
      transaction.rawTransactionReason == TransactionReason.renewal.rawValue
      || transaction.originalTransactionId.map { $0 != transaction.transactionId } ?? false
    return isRenewal ? nil : transaction.purchaseDate
  }

  /// The keys fact sources look a request up by.
  public var keys: RequestKeys {
    RequestKeys(
      transactionId: transaction.transactionId,
      originalTransactionId: transaction.originalTransactionId,
      appAccountToken: transaction.appAccountToken.map { UUIDText.text($0, uppercase: false) },
      productId: transaction.productId,
      bundleId: transaction.bundleId ?? notification.data?.bundleId)
  }

  /// Apple's deadline for the reply: 12 hours (5 minutes in the sandbox) after Apple first sent
  /// the notification (its `signedDate`, which retries keep), or after receipt if that was earlier.
  public var deadline: Date {
    (notification.data?.environment ?? .production).replyDeadline(
      receivedAt: receivedAt, signedDate: notification.signedDate)
  }

  /// The facts the signed notification gives.
  public func notificationFacts() -> [String: Value] {
    NotificationFacts.extract(from: self)
  }

  /// The app and environment the notification names.
  public var appKey: AppKey? {
    guard let data = notification.data, let bundleId = data.bundleId,
      let environment = data.environment
    else { return nil }
    return AppStoreApp(bundleId: bundleId, environment: environment).key
  }

  /// The transaction the reply names.
  public var replyId: String? { transactionId }

  /// The app account token set at purchase, else the original transaction.
  public var customer: CustomerKey? {
    let keys = keys
    return keys.appAccountToken.map(CustomerKey.appAccountToken)
      ?? keys.originalTransactionId.map(CustomerKey.originalTransactionId)
  }
}
