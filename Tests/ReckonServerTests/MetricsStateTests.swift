import Foundation
import ReckonEngine
import ReckonServer
import ReckonState
import Testing

/// What `/metrics` says of the state database: replies overdue and requests undecided, which no
/// event counter shows, and nothing at all (but that it could not read) rather than zeros when
/// the file cannot be read, so a stuck queue does not pass for an empty one.
struct MetricsStateTests {
  @Test func overdueRepliesAndUndecidedRequestsAreGauges() {
    let text = ReckonMetrics().render(
      state: StateGauges(outboxDepth: ["pending": 3], overdue: 2, undecided: 5))
    #expect(text.contains("\nreckon_state_readable 1\n"), "\(text)")
    #expect(text.contains(#"reckon_outbox_entries{state="pending"} 3"#))
    #expect(text.contains("\nreckon_outbox_overdue_entries 2\n"))
    #expect(text.contains("\nreckon_undecided_requests 5\n"))
  }

  /// With several instances on one state, which one leads and how far the senders lag behind.
  @Test(arguments: [true, false])
  func theLeadAndTheLagOfTheOldestDueEntryAreGauges(leader: Bool) {
    let now = Date()
    let text = ReckonMetrics().render(
      state: StateGauges(oldestDueSince: now.addingTimeInterval(-42)), leader: leader, now: now)
    #expect(text.contains("\nreckon_leader \(leader ? 1 : 0)\n"), "\(text)")
    #expect(text.contains("\nreckon_outbox_due_lag_seconds 42\n"))
  }

  @Test func anUnreadableStateDatabaseLeavesItsGaugesOut() {
    let text = ReckonMetrics().render(state: nil)
    #expect(text.contains("\nreckon_state_readable 0\n"), "\(text)")
    #expect(!text.contains("reckon_outbox_entries{"))
    #expect(!text.contains("reckon_outbox_overdue_entries "))
  }

  @Test func deferredAndExpiredUndecidedRequestsAreCounted() {
    let metrics = ReckonMetrics()
    metrics.record(.deferred(requestId: 1, reason: "app-db timed out"))
    metrics.record(.deferred(requestId: 1, reason: "app-db timed out"))
    metrics.record(
      .undecidedExpired(
        LapsedRequest(
          requestId: 1, transactionId: "7", bundleId: "com.example", environment: "Production",
          deadline: Date(),
          retries: 2, lastReason: nil)))
    metrics.record(.retryFailed(reason: "locked"))
    let text = metrics.render(state: StateGauges())
    #expect(text.contains(#"reckon_undecided_total{result="deferred"} 2"#), "\(text)")
    #expect(text.contains(#"reckon_undecided_total{result="expired"} 1"#))
    #expect(text.contains(#"reckon_undecided_total{result="unreadable"} 1"#))
  }
}
