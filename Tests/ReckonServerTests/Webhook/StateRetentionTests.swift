import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonTestSupport
import Testing

/// With `state.keepDays`, `reckon serve` prunes the state database itself: a minute after it
/// starts and daily after that (here every 0.2 s), off the concurrency pool.
struct StateRetentionTests {
  static func record(_ uuid: String, transaction: String, at date: Date) -> NotificationRecord {
    NotificationRecord(
      notificationUUID: uuid, notificationType: "CONSUMPTION_REQUEST", transactionId: transaction,
      originalTransactionId: transaction, appAccountToken: nil, bundleId: TestKey.bundleId,
      environment: "Sandbox", receivedAt: date, rawNotification: Data("{}".utf8))
  }

  @Test func serveRemovesRecordsOlderThanKeepDaysAndLogsWhatWent() async throws {
    let fixture = try ServerFixture(keepDays: 30)
    let store = fixture.service.store
    let old = UUID().uuidString
    let recent = UUID().uuidString
    _ = try store.recordNotification(
      Self.record(old, transaction: "1", at: Date().addingTimeInterval(-40 * 86_400)))
    _ = try store.recordNotification(
      Self.record(recent, transaction: "2", at: Date().addingTimeInterval(-20 * 86_400)))
    let pruned = await ServerFixture.eventually(within: 30) {
      fixture.logLines.all.contains { $0.contains(#""event":"pruned""#) }
    }
    let answered = try await fixture.post(
      try fixture.body(ServerFixture.notification(transaction: "3")))
    await fixture.stop()
    #expect(pruned, "\(fixture.logLines.all)")
    let line = fixture.logLines.all.first { $0.contains(#""event":"pruned""#) } ?? ""
    #expect(line.contains(#""notifications":1"#), "\(line)")
    #expect(try !store.hasNotification(uuid: old))
    #expect(try store.hasNotification(uuid: recent))
    #expect(answered.0 == 200)
  }

  @Test func withoutKeepDaysNothingIsPruned() async throws {
    let fixture = try ServerFixture()
    let store = fixture.service.store
    let old = UUID().uuidString
    _ = try store.recordNotification(
      Self.record(old, transaction: "1", at: Date().addingTimeInterval(-4_000 * 86_400)))
    try await Task.sleep(nanoseconds: 600_000_000)
    await fixture.stop()
    #expect(try store.hasNotification(uuid: old))
    #expect(!fixture.logLines.all.contains { $0.contains(#""event":"prune"#) })
  }
}
