import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// What an earlier sender left in force is said when a sender starts: a pause after a
/// credentials problem and Apple's rate limit, each while it lasts.
struct CarriedOverHoldsTests {
  @Test func pausesAndThrottlesStillInForceAreSaidAndEndedOnesAreNot() throws {
    let store = try TestState.store()
    let now = TestState.start
    try store.pause(
      AppStoreApp(bundleId: "com.example.paused", environment: .production).key,
      until: now.addingTimeInterval(300), reason: "HTTP 401")
    try store.pause(
      AppStoreApp(bundleId: "com.example.over", environment: .production).key,
      until: now.addingTimeInterval(-1), reason: "HTTP 403")
    try store.throttle(
      AppStoreApp(bundleId: "com.example.busy", environment: .sandbox).key,
      until: now.addingTimeInterval(60), now: now)
    let said = try SenderSetup.carriedOver(store, now: now)
    #expect(said.count == 2, "\(said)")
    #expect(said.first?.contains("com.example.paused") == true)
    #expect(said.first?.contains("HTTP 401") == true)
    #expect(said.last?.contains("com.example.busy") == true)
    #expect(said.last?.contains("rate-limited") == true)
    #expect(!said.joined().contains("com.example.over"))
  }

  /// Replies waiting for an app the sender's configuration does not name are said: it leaves
  /// them to a sender configured for it, and with none they would wait unseen.
  @Test func repliesOfAnAppNotConfiguredAreSaid() throws {
    let store = try TestState.store()
    _ = try OutboxFixture.enqueue(in: store, at: TestState.start, transaction: "1")
    _ = try OutboxFixture.enqueue(
      in: store, at: TestState.start, transaction: "2", bundleId: "com.example.gone")
    let configured = AppStoreApp(bundleId: TestKey.bundleId, environment: .production).key
    let said = try SenderSetup.carriedOver(store, apps: [configured], now: TestState.start)
    #expect(
      said == [
        "1 reply waits for com.example.gone (Production), which this configuration does not "
          + "name: this sender leaves it to one configured for it, and expires it at the "
          + "deadline (reckon queue drop ID drops one now)"
      ], "\(said)")
  }
}
