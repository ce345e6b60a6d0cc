import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonStateSQLite
import ReckonSupport

/// Entries and requests for sender tests.
public enum OutboxFixture {
  /// A reply body that passes every Apple rule, with a usage share.
  public static let body = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"consumptionPercentage":25000}"#
      .utf8)

  /// A new, empty SQLite state in the scratch folder.
  public static func temporaryStore() throws -> SQLiteStateStore {
    try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent("outbox-\(UUID()).sqlite")
        .path, rules: .stores, durability: .normal)
  }

  /// Enqueues one entry received at `date`; returns its id.
  @discardableResult
  public static func enqueue(
    in store: SQLiteStateStore, at date: Date, transaction: String = "2000",
    bundleId: String = TestKey.bundleId, environment: AppStoreEnvironment = .production,
    hold: Bool = false, body: Data = body
  ) throws -> Int64 {
    let record = NotificationRecord(
      notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
      transactionId: transaction,
      bundleId: bundleId, environment: environment.rawValue, receivedAt: date,
      rawNotification: Data("{}".utf8))
    let request = try store.recordNotification(record).requestId
    let decision = DecisionRecord(
      policyName: "test", policyVersion: nil, policySHA256: SHA256Digest.hex(Data("policy".utf8)),
      action: hold ? "hold" : "respond", rule: "r", reason: nil, body: body,
      factsJSON: Data("[]".utf8),
      explanationJSON: nil, decidedAt: date)
    let deadline = ReplyRules.appStore.deadline(of: record)
    let enqueue = OutboxEnqueue(
      app: AppStoreApp(bundleId: bundleId, environment: environment).key,
      transactionId: transaction,
      body: try CheckedBody(appStore: body, context: .init()), deadline: deadline,
      holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
    return try store.recordDecision(decision, requestId: request, enqueue: enqueue).entryId!
  }

  /// A Google Play answer that keeps every rule.
  public static let answer = Data(
    #"{"consumptionPercentageMilliunits":45200,"pendingRefundToken":"prt-1","refundPreference":"DECLINE","sampleContentProvided":false}"#
      .utf8)

  /// Enqueues one Google Play review answer received at `date` for `orderId` of `packageName`;
  /// returns its id.
  @discardableResult
  public static func enqueueGoogleAnswer(
    in store: SQLiteStateStore, at date: Date, orderId: String = "GPA.3312-5841-2290-11234",
    packageName: String = "com.example.reckon", hold: Bool = false, body: Data = answer
  ) throws -> Int64 {
    let record = NotificationRecord(
      notificationUUID: "google:" + UUID().uuidString, notificationType: "PENDING_REFUND_REVIEW",
      transactionId: orderId, bundleId: packageName, environment: "GooglePlay", receivedAt: date,
      rawNotification: Data("{}".utf8))
    let request = try store.recordNotification(record).requestId
    let decision = DecisionRecord(
      policyName: "test", policyVersion: nil, policySHA256: SHA256Digest.hex(Data("policy".utf8)),
      action: hold ? "hold" : "respond", rule: "r", reason: nil, body: body,
      factsJSON: Data("[]".utf8), explanationJSON: nil, decidedAt: date)
    let deadline = ReplyRules.stores.deadline(of: record)
    let enqueue = OutboxEnqueue(
      app: AppKey(bundleId: packageName, environment: "GooglePlay"), transactionId: orderId,
      body: try CheckedBody(googlePlay: body), deadline: deadline,
      holdUntil: hold ? deadline.addingTimeInterval(-3_600) : nil)
    return try store.recordDecision(decision, requestId: request, enqueue: enqueue).entryId!
  }
}
