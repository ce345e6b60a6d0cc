import Foundation
import ReckonAppStore
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// Schema 12 keeps each app's last live policy: a file an older Reckon left at schema 11 reads
/// as keeping none until it is upgraded, and then keeps one across closing and reopening.
struct LivePoliciesMigrationTests {
  let path = TestState.temporaryPath()
  let policy: ArchivedPolicy

  /// A file at schema 11, with a request recorded as schema 11 did.
  init() throws {
    let text = "rule \"grant\": respond with refund_preference = \"grant\" # Straße\n"
    policy = ArchivedPolicy(
      app: TestState.appKey, source: "policy.reckon", text: text,
      textSHA256: SHA256Digest.hex(Data(text.utf8)),
      wentLiveAt: TestState.start.addingTimeInterval(0.5))
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL")
    try StateSchema.migrate(connection, now: 0, to: StateSchema.livePolicies - 1)
    try connection.query(
      """
      INSERT INTO requests (id, notification_uuid, notification_type, transaction_id, bundle_id,
        environment, received_at, deadline, raw_notification)
      VALUES (1, 'u', 'CONSUMPTION_REQUEST', '1000', 'com.example', 'Production', ?, ?, x'00')
      """, [.date(TestState.start), .date(TestState.start.addingTimeInterval(43_200))])
  }

  @Test func aReadOnlyOpenOfTheOlderFileFindsNoPolicyKept() throws {
    let reader = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    #expect(try reader.schemaVersion() == StateSchema.livePolicies - 1)
    #expect(try reader.lastLivePolicy(app: TestState.appKey) == nil)
  }

  @Test func theUpgradedFileKeepsAPolicyThroughClosingAndReopening() throws {
    do {
      let store = try SQLiteStateStore(path: path, rules: .appStore)
      #expect(try store.schemaVersion() == StateSchema.migrations.count)
      #expect(try store.lastLivePolicy(app: TestState.appKey) == nil)
      try store.archiveLivePolicy(policy)
      #expect(try store.recordedNotification(requestId: 1) != nil)
    }
    let reopened = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try reopened.lastLivePolicy(app: TestState.appKey) == policy)
    let reader = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    #expect(try reader.lastLivePolicy(app: TestState.appKey) == policy)
  }

  /// `reckon state migrate` moves the kept policy with the rest of the file.
  @Test func theKeptPolicyExportsWithTheState() throws {
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    try store.archiveLivePolicy(policy)
    let batch = try store.exportRows(.livePolicies, after: 0, limit: 10)
    #expect(
      batch.rows == [
        [
          .text(policy.app.bundleId), .text(policy.app.environment), .text(policy.source),
          .text(policy.text), .text(policy.textSHA256),
          .real(policy.wentLiveAt.timeIntervalSince1970),
        ]
      ])
    #expect(try store.rowCount(.livePolicies) == 1)
  }
}
