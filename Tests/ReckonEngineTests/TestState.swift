import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonTestSupport

@testable import ReckonStateSQLite

/// Temporary state databases and ready-made records for the tests.
enum TestState {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  static let app = AppStoreApp(bundleId: "com.example", environment: .production)
  static let validBody = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)

  static func temporaryPath() -> String {
    TestScratch.folder.appendingPathComponent(
      "reckon-state-\(UUID().uuidString).sqlite"
    ).path
  }

  static func store() throws -> SQLiteStateStore {
    try SQLiteStateStore(path: temporaryPath())
  }

  static func notification(
    _ uuid: String = UUID().uuidString, transaction: String = "1000", at date: Date = start,
    token: String? = nil
  )
    -> NotificationRecord
  {
    NotificationRecord(
      notificationUUID: uuid, notificationType: "CONSUMPTION_REQUEST", transactionId: transaction,
      originalTransactionId: "900", appAccountToken: token, bundleId: app.bundleId,
      environment: app.environment,
      receivedAt: date, rawNotification: Data(#"{"signedPayload":"x.y.z"}"#.utf8))
  }

  static func decision(at date: Date = start, action: String = "respond") -> DecisionRecord {
    DecisionRecord(
      policyName: "default", policyVersion: "1", policySHA256: String(repeating: "a", count: 64),
      action: action,
      rule: "delivered", reason: nil, body: validBody, factsJSON: Data("[]".utf8),
      explanationJSON: nil, decidedAt: date)
  }

  static func enqueue(
    transaction: String = "1000", body: Data = validBody, at date: Date = start, hold: Bool = false
  ) -> OutboxEnqueue {
    let deadline = date.addingTimeInterval(12 * 3_600)
    return OutboxEnqueue(
      app: app, transactionId: transaction, context: ConsumptionValidationContext(), body: body,
      deadline: deadline,
      holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
  }

  /// Records a notification and a decision with its entry; returns the entry.
  static func enqueued(
    in store: SQLiteStateStore, transaction: String = "1000", at date: Date = start,
    hold: Bool = false
  ) throws -> OutboxEntry {
    let request = try store.recordNotification(notification(transaction: transaction, at: date))
      .requestId
    let receipt = try store.recordDecision(
      decision(at: date), requestId: request,
      enqueue: enqueue(transaction: transaction, at: date, hold: hold))
    return try store.entry(id: receipt.entryId!)
  }
}
