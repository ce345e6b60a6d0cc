import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonStateSQLite

/// Ready-made state records for the tests of every target that reads or writes the state: one
/// app, a CONSUMPTION_REQUEST, its decision and its valid reply, all at one start time.
public enum StateSamples {
  /// When every sample happens unless a test says otherwise.
  public static let start = Date(timeIntervalSince1970: 1_800_000_000)
  /// The app every sample is for.
  public static let app = AppStoreApp(bundleId: "com.example", environment: .production)
  /// The app as the state keys it.
  public static let appKey = app.key
  /// A reply body that passes every Apple rule.
  public static let validBody = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)

  /// A CONSUMPTION_REQUEST for `transaction`, received at `date`.
  public static func notification(
    _ uuid: String = UUID().uuidString, transaction: String = "1000", at date: Date = start,
    token: String? = nil
  ) -> NotificationRecord {
    NotificationRecord(
      notificationUUID: uuid, notificationType: "CONSUMPTION_REQUEST", transactionId: transaction,
      originalTransactionId: "900", appAccountToken: token, bundleId: app.bundleId,
      environment: app.environment.rawValue, receivedAt: date,
      rawNotification: Data(#"{"signedPayload":"x.y.z"}"#.utf8))
  }

  /// A decision made at `date` by the rule "delivered".
  public static func decision(at date: Date = start, action: String = "respond") -> DecisionRecord {
    DecisionRecord(
      policyName: "default", policyVersion: "1", policySHA256: String(repeating: "a", count: 64),
      action: action, rule: "delivered", reason: nil, body: validBody, factsJSON: Data("[]".utf8),
      explanationJSON: nil, decidedAt: date)
  }

  /// The reply `body` for `transaction`, due 12 hours after `date`; held until an hour before
  /// then when `hold`. Throws when `body` breaks one of Apple's rules.
  public static func enqueue(
    transaction: String = "1000", body: Data = validBody,
    context: ConsumptionValidationContext = .init(), at date: Date = start, hold: Bool = false
  ) throws(StateError) -> OutboxEnqueue {
    let deadline = date.addingTimeInterval(12 * 3_600)
    return OutboxEnqueue(
      app: appKey, transactionId: transaction,
      body: try CheckedBody(appStore: body, context: context), deadline: deadline,
      holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
  }

  /// A request for `transaction` recorded in `store` and decided, its reply enqueued; the entry.
  public static func enqueued(
    in store: any StateStore, transaction: String = "1000", at date: Date = start,
    hold: Bool = false
  ) throws -> OutboxEntry {
    let request = try store.recordNotification(notification(transaction: transaction, at: date))
    let receipt = try store.recordDecision(
      decision(at: date), requestId: request.requestId,
      enqueue: enqueue(transaction: transaction, at: date, hold: hold))
    guard let entryId = receipt.entryId else { throw EntryMissing() }
    return try store.entry(id: entryId)
  }

  /// A path for a new SQLite state file of its own in the scratch folder.
  public static func temporaryPath() -> String {
    TestScratch.folder.appendingPathComponent("reckon-state-\(UUID().uuidString).sqlite").path
  }

  /// A new, empty SQLite state of its own.
  public static func store() throws -> SQLiteStateStore {
    try SQLiteStateStore(path: temporaryPath(), rules: .appStore)
  }

  /// A decision with a reply came back without its entry.
  public struct EntryMissing: Error {}
}
