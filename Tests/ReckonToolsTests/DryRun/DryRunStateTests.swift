import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonSQLite
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite
@testable import ReckonTools

/// Dry-runs over the state database: date ranges, and facts as recorded versus gathered now.
struct DryRunStateTests {
  /// A small history: 150 generated requests decided by `targeted` with their outcomes.
  private static func history() async throws -> (DryRunFixture, String) {
    let fixture = try DryRunFixture(count: 150, seed: 5)
    let path = fixture.folder + "/reckon-state.sqlite"
    let written = try await GeneratedHistory.write(
      fixture.generator, configuration: fixture.files.configuration, to: path,
      state: SQLiteStateOpener())
    #expect(written == 150)
    return (fixture, path)
  }

  private static func requests(
    _ store: SQLiteStateStore, _ fixture: DryRunFixture, since: Date? = nil, until: Date? = nil
  ) throws -> [PastRequest] {
    try store.storedRequests(since: since, until: until).map {
      try StoredRequestDecoder.decode($0, schema: fixture.setup.schema)
    }
  }

  @Test func sinceAndUntilSelectRequestsByReceiveTime() async throws {
    let (fixture, path) = try await Self.history()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    let all = try Self.requests(store, fixture)
    #expect(all.count == 150)
    let since = all[30].request.receivedAt
    let until = all[120].request.receivedAt
    let some = try Self.requests(store, fixture, since: since, until: until)
    #expect(some.count == 90)
    #expect(some.allSatisfy { $0.request.receivedAt >= since && $0.request.receivedAt < until })
  }

  @Test func generatedOutcomesKeepTheAppAndEnvironmentOfTheirRequests() async throws {
    let (_, path) = try await Self.history()
    let apps = try SQLiteDatabase(path: path).query(
      "SELECT DISTINCT bundle_id, environment FROM outcomes")
    #expect(apps.map { [$0.text(0), $0.text(1)] } == [["com.example.coins", "Production"]])
  }

  @Test func recordedFactsGiveTheRecordedDecisionsEvenAfterTheFactsChange() async throws {
    let (fixture, path) = try await Self.history()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    let policy = try fixture.policy("targeted")
    let past = try Self.requests(store, fixture)
    let before = await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, facts: .recorded
    ).run(past)
    let live = await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema,
      facts: .current(fixture.setup.gatherer())
    ).run(past)
    #expect(before.rows.map(\.verdict) == live.rows.map(\.verdict))

    let database = try SQLiteDatabase(path: fixture.files.facts, options: [.readWrite, .noMutex])
    try database.execute("UPDATE customers SET consented_to_share = 0")
    let recorded = await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, facts: .recorded
    ).run(past)
    let reopened = try FactSourceSetup(fixture.configuration.factSources)
    let current = await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema,
      facts: .current(reopened.gatherer())
    ).run(past)
    #expect(recorded.rows.map(\.verdict) == before.rows.map(\.verdict))
    #expect(current.rows.allSatisfy { $0.verdict?.outcome == .skipNoConsent })
    #expect(DryRunSummary(recorded).byOutcome[.skipNoConsent, default: 0] < 150)
  }

  /// Apple declined a request an hour in and the customer asked again: serve recorded the
  /// second as a request of its own, and a dry-run of the database decides it too.
  @Test func aRequestAfterApplesVerdictIsDryRunAsARequestOfItsOwn() async throws {
    let (fixture, path) = try await Self.history()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    let first = try #require(try Self.requests(store, fixture).first)
    let transactionId = try #require(first.request.transactionId)
    _ = try store.attachOutcome(
      .refundDeclined, notificationUUID: "declined", transactionId: transactionId,
      app: AppStoreApp(bundleId: "com.example.coins", environment: .production).key,
      occurredAt: first.request.receivedAt.addingTimeInterval(3_600))
    let stored = try #require(
      try store.storedRequests(since: nil, until: nil).first?.rawNotification)
    // Apple's new request: its own UUID, signed when it was sent.
    let uuid = try #require(first.request.notification.notificationUUID)
    let signed = try #require(first.request.notification.signedDate)
    let asked = first.request.receivedAt.addingTimeInterval(7_200)
    let milliseconds = { (date: Date) in Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
    var text = String(decoding: stored, as: UTF8.self).replacingOccurrences(
      of: uuid, with: "asked-again")
    let signedField = try #require(text.range(of: #""signedDate":\#(milliseconds(signed))"#))
    text.replaceSubrange(signedField, with: #""signedDate":\#(milliseconds(asked))"#)
    let again = try store.recordNotification(
      NotificationRecord(
        notificationUUID: "asked-again", notificationType: "CONSUMPTION_REQUEST",
        transactionId: transactionId, bundleId: "com.example.coins", environment: "Production",
        receivedAt: asked, signedDate: asked, rawNotification: Data(text.utf8)))
    guard case .recorded = again else {
      Issue.record("taken for a repeat: \(again)")
      return
    }
    let dryRun = SequentialDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      facts: .current(fixture.setup.gatherer()))
    let past = try Self.requests(store, fixture)
    #expect(past.count == 151)
    let result = await dryRun.run(past, verdicts: try store.storeVerdicts())
    #expect(result.repeats == 0)
    #expect(result.rows.count == 151)
    // Without the verdict the second would be taken for a repeat of the first.
    #expect(await dryRun.run(past).repeats == 1)
  }

  @Test func requestsNeverDecidedAreReportedNotGuessed() async throws {
    let store = try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent(
        "reckon-\(UUID().uuidString).sqlite"
      ).path, rules: .appStore)
    let fixture = try DryRunFixture.shared()
    let line = try String(contentsOfFile: fixture.files.requests, encoding: .utf8).split(
      separator: "\n")[0]
    let request = try RequestFile.decode(Data(line.utf8), path: "line")
    _ = try store.recordNotification(
      NotificationRecord(
        notificationUUID: "u-1", notificationType: "CONSUMPTION_REQUEST",
        transactionId: request.transactionId,
        bundleId: "com.example.coins", environment: "Production", receivedAt: request.receivedAt,
        rawNotification: Data(line.utf8)))
    let past = try Self.requests(store, fixture)
    let result = await SequentialDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      facts: .recorded
    ).run(past)
    #expect(result.rows.count == 1)
    #expect(result.rows[0].verdict == nil)
    #expect(result.rows[0].problem?.contains("no facts were recorded") == true)
  }
}
