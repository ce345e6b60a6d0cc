import Foundation
import ReckonAppStore
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Undecided requests wait between failed retries, so the few that keep failing do not take
/// every pass from the rest, and one whose deadline passes undecided is reported once.
@Suite struct UndecidedRetryTests {
  let start = TestState.start

  @Test func aRequestReceivedBehindAPassfulOfFailingOnesIsStillTried() throws {
    let store = try TestState.store()
    var failing: [Int64] = []
    for index in 0..<100 {
      failing.append(
        try store.recordNotification(
          TestState.notification(
            transaction: "\(index)", at: start.addingTimeInterval(Double(index)))
        ).requestId)
    }
    let later = try store.recordNotification(
      TestState.notification(transaction: "new", at: start.addingTimeInterval(200))
    ).requestId
    let now = start.addingTimeInterval(300)
    #expect(try store.undecidedRequests(before: now, now: now).map(\.requestId) == failing)
    for id in failing {
      try store.postponeRetry(
        requestId: id, until: now.addingTimeInterval(60), reason: "app-db timed out")
    }
    #expect(try store.undecidedRequests(before: now, now: now).map(\.requestId) == [later])
    let due = now.addingTimeInterval(60)
    let next = try store.undecidedRequests(before: due, now: due)
    #expect(next.first?.requestId == later, "the one never tried comes first")
    #expect(next.count == 100)
    #expect(next.dropFirst().allSatisfy { $0.retries == 1 })
  }

  @Test(arguments: [(1, 60.0), (2, 120), (3, 240), (4, 480), (5, 600), (40, 600)])
  func theDelayDoublesFromAMinuteToTen(failures: Int, seconds: TimeInterval) {
    #expect(NotificationPipeline.retryDelay(afterFailures: failures) == seconds)
  }

  @Test func aFailedRetryWaitsAndSaysWhenItIsNext() async throws {
    let fixture = try WebhookFixture()
    fixture.facts.fail(true)
    _ = await fixture.service.answer(body: try fixture.body())
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    let deferred = fixture.events.all.compactMap { event -> String? in
      guard case .deferred(_, let reason) = event else { return nil }
      return reason
    }
    #expect(
      deferred.count == 2, "the answer's and the first retry's; the second waits: \(deferred)")
    #expect(deferred.last?.hasSuffix("(retry 1; next in 60 s)") == true, "\(deferred)")
    try fixture.store.makeRetriesDue()
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    #expect(try fixture.store.undecidedRequests(before: .distantFuture, now: Date()).isEmpty)
  }

  /// A pass can take many fact-source timeouts; the delay runs from the failure, or it would
  /// have run out before the pass ended.
  @Test func theDelayRunsFromTheFailureNotFromTheStartOfThePass() async throws {
    let fixture = try WebhookFixture()
    fixture.facts.fail(true)
    _ = await fixture.service.answer(body: try fixture.body())
    fixture.facts.beforeAnswering { try? await Task.sleep(nanoseconds: 1_500_000_000) }
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    let finished = Date()
    let retryAt = try #require(
      try fixture.store.connection.query("SELECT retry_at FROM requests").first?.date(0))
    #expect(retryAt.timeIntervalSince(finished) > 59, "\(retryAt) \(finished)")
  }

  @Test func aRequestWhoseDeadlinePassesUndecidedIsReportedOnceAsAnError() async throws {
    let fixture = try WebhookFixture()
    fixture.facts.fail(true)
    _ = await fixture.service.answer(body: try fixture.body())
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    #expect(try fixture.store.gauges(now: Date()).undecided == 1)
    try fixture.store.connection.query(
      "UPDATE requests SET deadline = ?", [.date(Date().addingTimeInterval(-1))])
    #expect(try fixture.store.gauges(now: Date()).undecided == 0)
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    let expired = fixture.events.all.filter { $0.name == "undecided_expired" }
    #expect(expired.count == 1)
    let event = try #require(expired.first)
    #expect(event.level == "error")
    #expect(
      event.description.hasPrefix(
        "request 1 for transaction 2000000812345678 of com.example.coins (Production) was never decided and its deadline passed at "
      ))
    #expect(
      event.description.contains("Apple got no reply; 1 retry failed, the last: "), "\(event)")
    #expect(event.fields["retries"] == .integer(1))
  }

  /// A lapsed request is marked before it is reported: when the mark cannot be written it is
  /// reported at a later pass, once, rather than at every pass.
  @Test func aLapsedRequestThatCannotBeMarkedIsReportedOnceItCanBe() async throws {
    let fixture = try WebhookFixture()
    fixture.facts.fail(true)
    _ = await fixture.service.answer(body: try fixture.body())
    try fixture.store.connection.query(
      "UPDATE requests SET deadline = ?", [.date(Date().addingTimeInterval(-1))])
    try fixture.store.connection.execute("PRAGMA query_only = 1")
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    #expect(!fixture.events.all.contains { $0.name == "undecided_expired" })
    #expect(fixture.events.all.contains { $0.name == "retry_failed" })
    try fixture.store.connection.execute("PRAGMA query_only = 0")
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    _ = await fixture.service.pipeline.retryUndecided(olderThan: 0)
    #expect(fixture.events.all.filter { $0.name == "undecided_expired" }.count == 1)
  }

  @Test func theGaugesCountOverdueRepliesThatNoSenderTook() throws {
    let store = try TestState.store()
    _ = try TestState.enqueued(in: store, transaction: "1")
    _ = try TestState.enqueued(in: store, transaction: "2", hold: true)
    let beforeDeadline = start.addingTimeInterval(3_600)
    #expect(try store.gauges(now: beforeDeadline).overdue == 0)
    #expect(try store.gauges(now: beforeDeadline).waiting == 2)
    let afterDeadline = start.addingTimeInterval(13 * 3_600)
    #expect(try store.gauges(now: afterDeadline).overdue == 2)
  }
}
