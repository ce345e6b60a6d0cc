import Foundation
import ReckonAppStore
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
}
