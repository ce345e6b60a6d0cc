import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonTestSupport

@testable import ReckonStateSQLite

/// Records for the reports and dry-runs that read a state database.
enum StoredRecords {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  static let app = AppStoreApp(bundleId: "com.example", environment: .production)

  /// A state database of its own in the scratch folder.
  static func store() throws -> SQLiteStateStore {
    try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent("reckon-state-\(UUID().uuidString).sqlite")
        .path)
  }

  /// A CONSUMPTION_REQUEST for `transaction` received at `start`.
  static func notification(transaction: String) -> NotificationRecord {
    NotificationRecord(
      notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
      transactionId: transaction, originalTransactionId: "900", appAccountToken: nil,
      bundleId: app.bundleId, environment: app.environment, receivedAt: start,
      rawNotification: Data(#"{"signedPayload":"x.y.z"}"#.utf8))
  }

  /// The reply `body` for `transaction`, due 12 hours after `start`.
  static func enqueue(transaction: String, body: Data) -> OutboxEnqueue {
    OutboxEnqueue(
      app: app, transactionId: transaction, context: ConsumptionValidationContext(), body: body,
      deadline: start.addingTimeInterval(12 * 3_600), holdUntil: nil)
  }

  /// A decoded CONSUMPTION_REQUEST for one consumable, with the notification's fields a
  /// dry-run row reads.
  static func request(receivedAt: Date = start) -> RefundRequest {
    var notification = ResponseBodyV2DecodedPayload()
    notification.rawNotificationType = "CONSUMPTION_REQUEST"
    notification.notificationUUID = "00000000-0000-0000-0000-000000000001"
    notification.signedDate = receivedAt
    var data = NotificationData()
    data.rawConsumptionRequestReason = ConsumptionRequestReason.unsatisfiedWithPurchase.rawValue
    data.rawEnvironment = "Production"
    data.bundleId = "com.example.coins"
    notification.data = data
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "49571273"
    transaction.originalTransactionId = "49571273"
    transaction.productId = "com.example.coins.pack500"
    transaction.rawType = ProductType.consumable.rawValue
    return RefundRequest(
      notification: notification, transaction: transaction, receivedAt: receivedAt)
  }
}
