import Foundation
import ReckonAppStore
import ReckonState

/// Records for the conformance suite, written with nothing but ReckonState's types.
enum StateRecordsFixture {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)
  static let app = AppStoreApp(bundleId: "com.example", environment: .production)
  static let body = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)

  /// A CONSUMPTION_REQUEST for `transaction`, received at `date`.
  static func notification(
    _ uuid: String = UUID().uuidString, transaction: String = "1000", at date: Date = start
  ) -> NotificationRecord {
    NotificationRecord(
      notificationUUID: uuid, notificationType: "CONSUMPTION_REQUEST", transactionId: transaction,
      originalTransactionId: "900", bundleId: app.bundleId, environment: app.environment,
      receivedAt: date, rawNotification: Data(#"{"signedPayload":"x.y.z"}"#.utf8))
  }

  /// A decision made at `date`.
  static func decision(at date: Date = start) -> DecisionRecord {
    DecisionRecord(
      policyName: "default", policyVersion: "1", policySHA256: String(repeating: "a", count: 64),
      action: "respond", rule: "delivered", reason: nil, body: body, factsJSON: Data("[]".utf8),
      explanationJSON: nil, decidedAt: date)
  }

  /// The reply for `transaction`, due 12 hours after `date`, held until an hour before then.
  static func enqueue(transaction: String = "1000", at date: Date = start, hold: Bool = false)
    -> OutboxEnqueue
  {
    let deadline = date.addingTimeInterval(12 * 3_600)
    return OutboxEnqueue(
      app: app, transactionId: transaction, context: ConsumptionValidationContext(), body: body,
      deadline: deadline, holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
  }

  /// A request for `transaction` recorded and decided, its reply enqueued; the entry.
  static func enqueued(
    in store: any StateStore, transaction: String = "1000", at date: Date = start,
    hold: Bool = false
  ) throws -> OutboxEntry {
    let request = try store.recordNotification(notification(transaction: transaction, at: date))
    let receipt = try store.recordDecision(
      decision(at: date), requestId: request.requestId,
      enqueue: enqueue(transaction: transaction, at: date, hold: hold))
    guard let entryId = receipt.entryId else { throw Missing() }
    return try store.entry(id: entryId)
  }
}

/// A decision with a reply that came back without its entry.
struct Missing: Error {}
