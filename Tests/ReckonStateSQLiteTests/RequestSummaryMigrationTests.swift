import Foundation
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// Schema 13 keeps what the reports read of each request beside it: a file an older Reckon left
/// at schema 12 reads as it is (its requests without a summary, their notifications decoded by
/// the report) and upgrades in place, its rows kept; `reckon state migrate` moves the summary.
struct RequestSummaryMigrationTests {
  let path = TestState.temporaryPath()

  /// A file at schema 12 with a decided request recorded as schema 12 did.
  init() throws {
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL")
    try StateSchema.migrate(connection, now: 0, to: StateSchema.requestSummaries - 1)
    try connection.execute(
      """
      INSERT INTO requests (id, notification_uuid, notification_type, transaction_id, bundle_id,
        environment, received_at, deadline, raw_notification)
      VALUES (1, 'u', 'CONSUMPTION_REQUEST', '1000', 'com.example', 'Production', 1800000000,
        1800043200, x'7b7d');
      INSERT INTO decisions (id, request_id, decided_at, policy_name, policy_sha256, action, rule,
        facts_json)
      VALUES (1, 1, 1800000001, 'default', 'aa', 'respond', 'grant', '[]');
      """)
  }

  @Test func aReadOnlyOpenOfTheOlderFileReadsItsRequestsWithoutASummary() throws {
    let reader = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    #expect(try reader.schemaVersion() == StateSchema.requestSummaries - 1)
    let decided = try reader.decidedOutcomes(since: nil, until: nil)
    #expect(decided.map(\.summary) == [nil])
    #expect(decided.map(\.rawNotification) == [Data("{}".utf8)])
    let exported = try reader.exportRows(.requests, after: 0, limit: 10).rows
    #expect(exported.first?.suffix(5) == [.null, .null, .null, .null, .boolean(false)])
  }

  @Test func theUpgradedFileKeepsItsRequestsAndSummarizesNewOnes() throws {
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try store.schemaVersion() == StateSchema.requestSummaries)
    var record = TestState.notification(
      transaction: "2000", at: TestState.start.addingTimeInterval(60))
    record.summary = RequestSummary(
      price: 990, currency: "USD", reason: nil, productType: "consumable")
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(TestState.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let decided = try store.decidedOutcomes(since: nil, until: nil)
    #expect(decided.map(\.summary) == [nil, record.summary])
    let exported = try store.exportRows(.requests, after: 1, limit: 10).rows
    #expect(
      exported.first?.suffix(5)
        == [.integer(990), .text("USD"), .null, .text("consumable"), .boolean(true)])
  }
}
