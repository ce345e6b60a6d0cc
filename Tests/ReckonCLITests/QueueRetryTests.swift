import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

@testable import ReckonStateSQLite

/// `reckon queue retry ID`: tries a failed or pending entry again, and never releases a held one,
/// which waits for a person's review.
struct QueueRetryTests {
  @Test func retryRefusesAHeldEntryPointingToApproveAndLeavesItHeld() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["retry", "1"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("reckon queue approve 1"), "\(run.standardError)")
    #expect(run.standardError.contains("reckon queue set 1"), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    let show = try await fixture.queue(["show", "1"]).standardOutput
    #expect(show.hasPrefix("entry 1: held since"), "\(show)")
  }

  @Test func retrySendsAPendingEntryNow() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["retry", "2"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "entry 2: pending\n")
  }
}

/// `reckon queue retry`, `approve` and `set` while the entry's app is paused after a credentials
/// problem: the command takes effect, and stderr says the entry waits for the pause to end.
struct QueuePausedAppTests {
  static let reason = "Apple answered 401: the token was refused"

  @Test(arguments: [["retry", "2"], ["approve", "1"], ["set", "1", "refundPreference=DECLINE"]])
  func aCommandOnAPausedAppsEntrySaysUntilWhenAndWhy(arguments: [String]) async throws {
    let fixture = try QueueFixture()
    let until = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 300)
    try fixture.pauseApp(until: until, reason: Self.reason)
    let run = try await fixture.queue(arguments)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "entry \(arguments[1]): pending\n")
    let stamp = ISO8601DateFormatter().string(from: until)
    #expect(
      run.standardError
        == "note: sending for com.example (Production) is paused until \(stamp) after a credentials problem: \(Self.reason); entry \(arguments[1]) goes out then (check the key, issuer id and bundle id (reckon keys check))\n"
    )
  }

  /// Apple's rate limit holds the app back the same way: `retry` takes effect and says until
  /// when, rather than "pending" alone.
  @Test func aRetryWhileAppleRateLimitsTheAppSaysUntilWhen() async throws {
    let fixture = try QueueFixture()
    let until = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 120)
    try SQLiteStateStore(path: fixture.statePath, rules: .appStore).throttle(
      AppStoreApp(bundleId: "com.example", environment: .production).key, until: until, now: Date())
    let run = try await fixture.queue(["retry", "2"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "entry 2: pending\n")
    let stamp = ISO8601DateFormatter().string(from: until)
    #expect(
      run.standardError
        == "note: Apple rate-limited com.example (Production) until \(stamp) (its Retry-After); entry 2 goes out then\n"
    )
  }

  @Test func aPauseThatHasEndedIsNotMentioned() async throws {
    let fixture = try QueueFixture()
    try fixture.pauseApp(until: Date().addingTimeInterval(-60), reason: Self.reason)
    let run = try await fixture.queue(["retry", "2"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.isEmpty, "\(run.standardError)")
  }
}
