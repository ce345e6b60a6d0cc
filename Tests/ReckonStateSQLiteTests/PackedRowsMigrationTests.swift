import Foundation
import ReckonAppStore
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// Schema 11 packs notifications and deflates decisions' JSON; rows an older Reckon wrote, as
/// received and as written, read the same before the upgrade (read-only), after it, and when
/// exported.
struct PackedRowsMigrationTests {
  let path = TestState.temporaryPath()
  let raw: Data
  let facts = Data(#"[{"name":"reason","source":"notification","value":"OTHER"}]"#.utf8)
  let explanation = Data(#"{"facts":[],"rule":"delivered"}"#.utf8)

  /// A file at schema 10 with a signed request and its decision, stored as schema 10 did.
  init() throws {
    raw = try AppleShapedNotification().body(SimulatedNotification())
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL")
    try StateSchema.migrate(connection, now: 0, to: StateSchema.packedRows - 1)
    try connection.query(
      """
      INSERT INTO requests (id, notification_uuid, notification_type, transaction_id, bundle_id,
        environment, received_at, deadline, raw_notification)
      VALUES (1, 'u', 'CONSUMPTION_REQUEST', '1000', 'com.example', 'Production', ?, ?, ?)
      """,
      [
        .date(TestState.start), .date(TestState.start.addingTimeInterval(43_200)), .blob(raw),
      ])
    try connection.query(
      """
      INSERT INTO decisions (id, request_id, decided_at, policy_name, policy_sha256, action, rule,
        facts_json, explanation_json) VALUES (1, 1, ?, 'p', 'a', 'respond', 'delivered', ?, ?)
      """, [.date(TestState.start), .blob(facts), .blob(explanation)])
  }

  private func expectTheOldRowsRead(_ store: SQLiteStateStore) throws {
    #expect(try store.recordedNotification(requestId: 1)?.rawNotification == raw)
    let decision = try #require(try store.decision(id: 1))
    #expect(decision.factsJSON == facts && decision.explanationJSON == explanation)
    #expect(try store.storedRequests(since: nil, until: nil).first?.factsJSON == facts)
  }

  @Test func rowsAnOlderReckonWroteReadTheSameBeforeAndAfterTheUpgrade() throws {
    let reader = try SQLiteStateStore(path: path, rules: .appStore, access: .readOnly)
    #expect(try reader.schemaVersion() == StateSchema.packedRows - 1)
    try expectTheOldRowsRead(reader)
    let upgraded = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try upgraded.schemaVersion() == StateSchema.migrations.count)
    try expectTheOldRowsRead(upgraded)
  }

  @Test func newRowsBesideOldOnesArePackedAndBothExportAsWritten() throws {
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    var record = TestState.notification(transaction: "1001")
    record.rawNotification = raw
    let id = try store.recordNotification(record).requestId
    var decision = TestState.decision()
    decision.factsJSON = facts
    decision.explanationJSON = explanation
    _ = try store.recordDecision(decision, requestId: id, enqueue: nil, sentAt: nil)
    let formats = try store.connection.query("SELECT raw_format FROM requests ORDER BY id")
    #expect(formats.map { $0.int(0) } == [0, PackedNotification.format])
    let stored = try store.connection.query("SELECT length(raw_notification) FROM requests")
    #expect((stored.last?.int(0) ?? 0) * 8 < raw.count)
    #expect(try store.connection.query("SELECT count(*) FROM certificates").first?.int(0) == 3)
    try expectTheOldRowsRead(store)

    let requests = try store.exportRows(.requests, after: 0, limit: 10)
    let at = try #require(StateTable.requests.columns.firstIndex { $0.name == "raw_notification" })
    #expect(requests.rows.map { $0[at] } == [.bytes(raw), .bytes(raw)])
    let decisions = try store.exportRows(.decisions, after: 0, limit: 10)
    let factsAt = try #require(StateTable.decisions.columns.firstIndex { $0.name == "facts_json" })
    #expect(decisions.rows.map { $0[factsAt] } == [.bytes(facts), .bytes(facts)])
    #expect(decisions.rows.map { $0[factsAt + 1] } == [.bytes(explanation), .bytes(explanation)])
  }
}
