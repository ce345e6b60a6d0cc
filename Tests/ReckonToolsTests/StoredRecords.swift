import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonTestSupport

@testable import ReckonStateSQLite

/// Records for the reports and dry-runs that read a state database: the shared samples and a
/// decoded request.
typealias StoredRecords = StateSamples

extension StateSamples {
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
