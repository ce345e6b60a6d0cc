import Foundation
import ReckonAppStore
import ReckonPolicy
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// A refund is an earlier refund only for requests of its own app and environment, as an earlier
/// request is; outcomes recorded before Reckon kept their app take it from their own
/// notification, else from the request they attached to.
struct OutcomeAppTests {
  static let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
  static let sandbox = AppStoreApp(bundleId: TestState.app.bundleId, environment: .sandbox)
  static let otherApp = AppStoreApp(bundleId: "com.example.other", environment: .production)

  /// `history.earlier_refunds` for a request of `app` from the customer with `token`, a day
  /// after the start.
  static func earlierRefunds(_ store: SQLiteStateStore, for app: AppStoreApp) throws -> Value? {
    var notification = ResponseBodyV2DecodedPayload()
    var data = NotificationData()
    data.bundleId = app.bundleId
    data.rawEnvironment = app.environment.rawValue
    notification.data = data
    var transaction = JWSTransactionDecodedPayload()
    transaction.transactionId = "2000"
    transaction.appAccountToken = UUID(uuidString: token)
    let request = RefundRequest(
      notification: notification, transaction: transaction,
      receivedAt: TestState.start.addingTimeInterval(86_400))
    return try StateHistoryFacts(store: store).history(for: request)["history.earlier_refunds"]
  }

  /// A refund recorded for one app, a later request of another, and whether the refund counts.
  struct AppCase: Sendable, CustomTestStringConvertible {
    var refund: AppStoreApp
    var request: AppStoreApp
    var counts: Bool
    var testDescription: String {
      "a refund of \(refund.bundleId) \(refund.environment.rawValue) for a request of "
        + "\(request.bundleId) \(request.environment.rawValue)"
    }
  }

  @Test(arguments: [
    AppCase(refund: sandbox, request: TestState.app, counts: false),
    AppCase(refund: TestState.app, request: sandbox, counts: false),
    AppCase(refund: otherApp, request: TestState.app, counts: false),
    AppCase(refund: TestState.app, request: TestState.app, counts: true),
    AppCase(refund: sandbox, request: sandbox, counts: true),
  ])
  func aRefundIsAnEarlierRefundOnlyForRequestsOfItsOwnAppAndEnvironment(_ test: AppCase) throws {
    let store = try TestState.store()
    try store.attachOutcome(
      .refund, notificationUUID: "refund", transactionId: "1000", app: test.refund.key,
      appAccountToken: Self.token.uppercased(), occurredAt: TestState.start)
    #expect(try Self.earlierRefunds(store, for: test.request) == .number(test.counts ? 1 : 0))
  }

  @Test func anOutcomeRecordedWithoutItsAppKeepsTheAppOfTheRequestItAttachedTo() throws {
    let store = try TestState.store()
    var request = TestState.notification(token: Self.token)
    request.environment = "Sandbox"
    let id = try store.recordNotification(request).requestId
    let attached = try store.attachOutcome(
      .refund, notificationUUID: "refund", transactionId: "1000", appAccountToken: Self.token,
      occurredAt: TestState.start.addingTimeInterval(60))
    #expect(attached == id)
    #expect(try Self.earlierRefunds(store, for: Self.sandbox) == .number(1))
    #expect(try Self.earlierRefunds(store, for: TestState.app) == .number(0))
  }

  /// A database at schema 5, before outcomes kept their app, holding a Production request and
  /// three refunds for its customer: a Sandbox REFUND the webhook recorded (which Reckon then
  /// credited to the Production request sharing its transaction id), one imported from Apple's
  /// history and attached to the request, and one imported with no request to attach to.
  static func databaseBeforeOutcomeApps() throws -> String {
    let path = try StateStoreTests.database(atVersion: StateSchema.outcomeApps - 1)
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL")
    let requests = [
      ("production-request", "CONSUMPTION_REQUEST", "Production"),
      ("sandbox-refund", "REFUND", "Sandbox"),
    ]
    for (uuid, type, environment) in requests {
      try connection.query(
        """
        INSERT INTO requests (notification_uuid, notification_type, transaction_id, app_account_token,
          bundle_id, environment, received_at, deadline, raw_notification)
        VALUES (?, ?, '1000', ?, ?, ?, ?, ?, x'7b7d')
        """,
        [
          .text(uuid), .text(type), .text(token), .text(TestState.app.bundleId),
          .text(environment), .date(TestState.start), .date(TestState.start),
        ])
    }
    for (uuid, request) in [("sandbox-refund", 1), ("imported-refund", 1), ("unknown-refund", nil)]
      as [(String, Int64?)]
    {
      try connection.query(
        """
        INSERT INTO outcomes (notification_uuid, request_id, type, transaction_id, app_account_token,
          occurred_at) VALUES (?, ?, 'REFUND', '1000', ?, ?)
        """,
        [
          .text(uuid), request.map { .integer($0) } ?? .null, .text(token),
          .date(TestState.start),
        ])
    }
    return path
  }

  @Test func migrationSixBackfillsEachOutcomesAppFromItsNotificationElseItsRequest() throws {
    let store = try SQLiteStateStore(
      path: try Self.databaseBeforeOutcomeApps(), rules: .appStore, access: .existing)
    #expect(try store.schemaVersion() == StateSchema.migrations.count)
    let rows = try store.connection.query(
      "SELECT notification_uuid, bundle_id, environment FROM outcomes ORDER BY notification_uuid")
    let apps = rows.map { [$0.text(0), $0.text(1), $0.text(2)] }
    #expect(
      apps == [
        ["imported-refund", TestState.app.bundleId, "Production"],
        ["sandbox-refund", TestState.app.bundleId, "Sandbox"],
        ["unknown-refund", nil, nil],
      ])
  }

  /// Migrated, or read as it is by a read-only open: the same counts. A refund whose app is
  /// unknown counts for every app, as every refund did before.
  @Test(arguments: [SQLiteStateStore.Access.existing, .readOnly])
  func anOlderDatabaseCountsEachRefundForTheAppItWasBackfilledWith(access: SQLiteStateStore.Access)
    throws
  {
    let store = try SQLiteStateStore(
      path: try Self.databaseBeforeOutcomeApps(), rules: .appStore, access: access)
    #expect(try Self.earlierRefunds(store, for: TestState.app) == .number(2))
    #expect(try Self.earlierRefunds(store, for: Self.sandbox) == .number(2))
    #expect(try Self.earlierRefunds(store, for: Self.otherApp) == .number(1))
  }
}
