import Foundation
import ReckonAppStore
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// The webhook pipeline on a real state database with notifications signed by a local CA.
struct NotificationPipelineTests {
  @Test func aVerifiedRequestIsRecordedDecidedAndQueued() async throws {
    let fixture = try WebhookFixture()
    let answer = await fixture.service.answer(body: try fixture.body())
    #expect(answer.status == 200)
    #expect(answer.verdict == .decided)
    #expect(WebhookFixture.fields(answer)["rule"] == "otherwise")
    let entries = try fixture.store.entries()
    #expect(entries.count == 1)
    #expect(entries.first?.state.name == "pending")
    #expect(entries.first?.transactionId == "2000000812345678")
    let body = String(decoding: entries.first?.body ?? Data(), as: UTF8.self)
    #expect(body.contains(#""refundPreference":"DECLINE""#))
  }

  @Test func theSameNotificationThreeTimesIsOneDecision() async throws {
    let fixture = try WebhookFixture()
    let body = try fixture.body()
    var verdicts: [WebhookAnswer.Verdict] = []
    for _ in 0..<3 {
      let answer = await fixture.service.answer(body: body)
      #expect(answer.status == 200)
      verdicts.append(answer.verdict)
    }
    #expect(verdicts == [.decided, .duplicate, .duplicate])
    #expect(try fixture.recorded() == 1)
    #expect(try fixture.store.decisionCount(requestId: 1) == 1)
    #expect(try fixture.store.entries().count == 1)
  }

  @Test func concurrentCopiesOfOneNotificationMakeOneDecision() async throws {
    let fixture = try WebhookFixture()
    let body = try fixture.body()
    let statuses = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<6 { group.addTask { await fixture.service.answer(body: body).status } }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 200, count: 6))
    #expect(try fixture.store.decisionCount(requestId: 1) == 1)
    #expect(try fixture.store.entries().count == 1)
  }

  @Test func aNewRequestAfterTheEarlierOnesDeadlineCountsTheEarlierOnes() async throws {
    let fixture = try WebhookFixture()
    let earlier = NotificationRecord(
      notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
      transactionId: "2000000812345678", bundleId: "com.example.coins",
      environment: "Production", receivedAt: Date().addingTimeInterval(-13 * 3_600),
      rawNotification: try fixture.body())
    _ = try fixture.store.recordNotification(earlier)
    let again = await fixture.service.answer(body: try fixture.body(SimulatedNotification()))
    #expect(again.verdict == .decided)
    #expect(WebhookFixture.fields(again)["rule"] == "asked again")
    #expect(try fixture.recorded() == 2)
    #expect(try fixture.store.entries().count == 1)
  }

  /// Apple declined within the first request's 12 hours and the customer asked again: the new
  /// request is decided (as one asked again) and answered, not taken for a repeat of the first.
  @Test func aRequestAfterAppleDeclinedTheOpenOneIsDecidedAsAskedAgain() async throws {
    let fixture = try WebhookFixture()
    let first = await fixture.service.answer(body: try fixture.body())
    #expect(first.verdict == .decided)
    var declined = SimulatedNotification()
    declined.type = "REFUND_DECLINED"
    #expect(await fixture.service.answer(body: try fixture.body(declined)).verdict == .outcome)
    let again = await fixture.service.answer(body: try fixture.body(SimulatedNotification()))
    #expect(again.verdict == .decided)
    #expect(WebhookFixture.fields(again)["rule"] == "asked again")
    #expect(try fixture.store.entries().count == 2)
  }

  /// Outcome notifications are recorded beside requests; they are neither requests to count nor
  /// the request a later outcome belongs to.
  @Test func outcomeNotificationsAreNotCountedAsRequestsNorAttachedTo() async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    for type in ["REFUND", "REFUND_REVERSED"] {
      var outcome = SimulatedNotification()
      outcome.type = type
      outcome.revocationDate = Date().addingTimeInterval(-30)
      #expect(await fixture.service.answer(body: try fixture.body(outcome)).verdict == .outcome)
    }
    #expect(try fixture.store.outcomes(requestId: 1) == [.refund, .refundReversed])
    #expect(try fixture.recorded() == 3)
    #expect(
      try fixture.store.requestCount(transactionId: "2000000812345678", before: .distantFuture)
        == 1)
  }

  @Test func theSameRequestUnderANewUUIDWhileItIsOpenIsARepeatAndNotDecidedAgain() async throws {
    let fixture = try WebhookFixture()
    let first = await fixture.service.answer(body: try fixture.body())
    #expect(first.verdict == .decided)
    var answers: [WebhookAnswer] = []
    for _ in 0..<2 {
      answers.append(await fixture.service.answer(body: try fixture.body(SimulatedNotification())))
    }
    #expect(answers.map(\.status) == [200, 200])
    #expect(answers.map(\.verdict) == [.repeated, .repeated])
    #expect(answers.map { WebhookFixture.fields($0)["repeatOf"] } == ["1", "1"])
    // One reply, from the first decision; the copies are kept for audit but not counted.
    #expect(try fixture.store.entries().count == 1)
    #expect(try fixture.store.decisionCount(requestId: 2) == 0)
    #expect(try fixture.recorded() == 3)
    #expect(
      try fixture.store.requestCount(transactionId: "2000000812345678", before: .distantFuture)
        == 1)
    #expect(try fixture.store.undecidedRequests(before: .distantFuture, now: Date()).isEmpty)
    #expect(
      fixture.events.all.contains {
        if case .answered(_, .repeated, 200, let detail, _) = $0 {
          return detail?.contains(#""repeatOf":"1""#) == true
        }
        return false
      })
  }

  /// The reply window and when a held reply goes out: 12 hours and an hour before the deadline
  /// in production; Apple applies sandbox replies only within 5 minutes, so a sandbox hold goes
  /// out a minute before that.
  @Test(arguments: [
    (AppStoreEnvironment.production, 12 * 3_600.0, 11 * 3_600.0),
    (AppStoreEnvironment.sandbox, 300.0, 240.0),
  ])
  func aHeldReplyGoesOutBeforeTheEnvironmentsWindowCloses(
    environment: AppStoreEnvironment, window: TimeInterval, release: TimeInterval
  ) async throws {
    let fixture = try WebhookFixture(
      policy: .text(name: "hold.policy", "otherwise refund DECLINE, hold for review"),
      environments: [environment])
    var notification = SimulatedNotification()
    notification.environment = environment.rawValue
    // The window counts from Apple's signature when that is earlier than receipt, and the
    // signature's date is in whole milliseconds.
    let before = notification.signedDate.addingTimeInterval(-0.001)
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    let after = Date()
    #expect(answer.verdict == .decided)
    let entry = try #require(try fixture.store.entries().first)
    let received = (before.timeIntervalSince1970)...(after.timeIntervalSince1970)
    #expect(received.contains(entry.deadline.timeIntervalSince1970 - window))
    guard case .held(let releaseAt) = entry.state else {
      Issue.record("not held: \(entry.state)")
      return
    }
    #expect(received.contains(releaseAt.timeIntervalSince1970 - release))
  }

  /// Xcode's and LocalTesting's transactions are on no Apple server: decided, never queued.
  @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
  func aLocalEnvironmentsRequestIsDecidedButNoReplyIsQueued(
    environment: AppStoreEnvironment
  ) async throws {
    let fixture = try WebhookFixture(environments: [environment])
    var notification = SimulatedNotification()
    notification.environment = environment.rawValue
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    #expect(answer.verdict == .decided)
    #expect(WebhookFixture.fields(answer)["entry"] == nil)
    #expect(try fixture.store.decisionCount(requestId: 1) == 1)
    #expect(try fixture.store.entries().isEmpty)
  }

  /// `reckon import-history` found the request before Apple's retry of it arrived: the retry
  /// is decided and answered, not taken for a copy already handled.
  @Test func aRetryOfARequestImportedFromHistoryIsDecided() async throws {
    let fixture = try WebhookFixture()
    let notification = SimulatedNotification()
    _ = try fixture.store.recordNotification(
      NotificationRecord(
        notificationUUID: notification.notificationUUID, notificationType: notification.type,
        transactionId: notification.transactionId, bundleId: notification.bundleId,
        environment: "Production", receivedAt: notification.signedDate,
        signedDate: notification.signedDate, rawNotification: Data(), imported: true))
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    #expect(answer.verdict == .decided)
    #expect(try fixture.store.entries().count == 1)
  }

  /// A delivery three hours after Apple first sent the request (a retry after an outage) has
  /// nine hours left, not twelve.
  @Test func aLateDeliveryKeepsTheDeadlineOfApplesFirstSend() async throws {
    let fixture = try WebhookFixture()
    var notification = SimulatedNotification()
    notification.signedDate = Date().addingTimeInterval(-3 * 3_600)
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    #expect(answer.verdict == .decided)
    let entry = try #require(try fixture.store.entries().first)
    #expect(
      abs(entry.deadline.timeIntervalSince(notification.signedDate) - 12 * 3_600) < 0.001)
  }

  @Test func refundOutcomesAttachAndCountAsEarlierRefunds() async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    var refund = SimulatedNotification()
    refund.type = "REFUND"
    refund.revocationDate = Date().addingTimeInterval(-30)
    let outcome = await fixture.service.answer(body: try fixture.body(refund))
    #expect(outcome.status == 200)
    #expect(outcome.verdict == .outcome)
    #expect(try fixture.store.outcomes(requestId: 1) == [.refund])
    var other = SimulatedNotification()
    other.transactionId = "2000000812340001"
    let next = await fixture.service.answer(body: try fixture.body(other))
    #expect(WebhookFixture.fields(next)["rule"] == "refunded before")
  }

  /// A refund the webhook recorded in one environment, then a request from the same customer in
  /// the other environment (not refunded before) and in its own (refunded before).
  @Test(arguments: [
    (AppStoreEnvironment.sandbox, AppStoreEnvironment.production),
    (AppStoreEnvironment.production, AppStoreEnvironment.sandbox),
  ])
  func aRefundIsAnEarlierRefundOnlyInItsOwnEnvironment(
    refundIn: AppStoreEnvironment, other: AppStoreEnvironment
  ) async throws {
    let fixture = try WebhookFixture(environments: [.production, .sandbox])
    var refund = SimulatedNotification()
    refund.type = "REFUND"
    refund.environment = refundIn.rawValue
    refund.revocationDate = Date().addingTimeInterval(-30)
    #expect(await fixture.service.answer(body: try fixture.body(refund)).verdict == .outcome)
    var elsewhere = SimulatedNotification()
    elsewhere.environment = other.rawValue
    elsewhere.transactionId = "2000000812340001"
    let notRefunded = await fixture.service.answer(body: try fixture.body(elsewhere))
    #expect(notRefunded.verdict == .decided)
    #expect(WebhookFixture.fields(notRefunded)["rule"] == "otherwise")
    var sameEnvironment = SimulatedNotification()
    sameEnvironment.environment = refundIn.rawValue
    sameEnvironment.transactionId = "2000000812340002"
    let refunded = await fixture.service.answer(body: try fixture.body(sameEnvironment))
    #expect(WebhookFixture.fields(refunded)["rule"] == "refunded before")
  }

  @Test(arguments: ["REFUND_DECLINED", "REFUND_REVERSED", "REVOKE"])
  func otherOutcomesAttachToTheirRequest(type: String) async throws {
    let fixture = try WebhookFixture()
    _ = await fixture.service.answer(body: try fixture.body())
    var outcome = SimulatedNotification()
    outcome.type = type
    let answer = await fixture.service.answer(body: try fixture.body(outcome))
    #expect(answer.verdict == .outcome)
    #expect(try fixture.store.outcomes(requestId: 1).map(\.rawValue) == [type])
  }

  @Test(arguments: ["DID_RENEW", "TEST", "ONE_TIME_CHARGE"])
  func otherTypesAreAcknowledgedAndKept(type: String) async throws {
    let fixture = try WebhookFixture()
    var notification = SimulatedNotification()
    notification.type = type
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    #expect(answer.status == 200)
    #expect(answer.verdict == .acknowledged)
    #expect(try fixture.recorded() == 1)
    #expect(try fixture.store.entries().isEmpty)
  }

  @Test func aFailingFactSourceKeepsTheRequestAndARetryDecidesIt() async throws {
    let fixture = try WebhookFixture()
    fixture.facts.fail(true)
    let answer = await fixture.service.answer(body: try fixture.body())
    #expect(answer.status == 200)
    #expect(answer.verdict == .deferred)
    #expect(try fixture.recorded() == 1)
    #expect(try !fixture.store.hasDecision(requestId: 1))
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    fixture.facts.fail(false)
    // A failed retry waits a minute before the next.
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    try fixture.store.makeRetriesDue()
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 1)
    #expect(try fixture.store.decisionCount(requestId: 1) == 1)
    #expect(try fixture.store.entries().count == 1)
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
  }

  @Test func aStateDatabaseThatCannotBeWrittenAnswers500() async throws {
    let fixture = try WebhookFixture()
    try fixture.store.locked { () throws(StateError) in
      try fixture.store.connection.execute("PRAGMA query_only = 1")
    }
    let answer = await fixture.service.answer(body: try fixture.body())
    #expect(answer.status == 500)
    #expect(answer.verdict == .recordingFailed)
    #expect(try fixture.recorded() == 0)
  }

  /// A state database whose undecided requests cannot be read is said, as an error event,
  /// rather than pass for nothing to retry.
  @Test func aRetryThatCannotReadTheStateDatabaseSaysSo() async throws {
    let fixture = try WebhookFixture()
    try fixture.store.connection.execute(
      "DROP TABLE outbox; DROP TABLE decisions; DROP TABLE requests")
    #expect(await fixture.service.retryUndecided(olderThan: 0) == 0)
    let failed = fixture.events.all.compactMap { event -> String? in
      if case .retryFailed(let reason) = event { reason } else { nil }
    }
    #expect(failed.count == 1, "\(fixture.events.all)")
    #expect(ReckonEvent.retryFailed(reason: "x").level == "error")
  }

  /// Two services on one database retrying one undecided request: the one that records second
  /// finds the first decision, writes nothing, says so, and does not count it as decided.
  @Test func aRequestDecidedFirstByAnotherServiceIsNotCountedOrWrittenAgain() async throws {
    let first = try WebhookFixture()
    let second = try WebhookFixture(statePath: first.statePath, authority: first.authority)
    first.facts.fail(true)
    _ = await first.service.handleNotification(body: try first.body())
    first.facts.fail(false)
    // While the second service gathers its facts, the first decides the request.
    second.facts.beforeAnswering {
      _ = await first.service.retryUndecided(olderThan: 0)
    }
    #expect(await second.service.retryUndecided(olderThan: 0) == 0)
    let elsewhere = second.events.all.filter {
      if case .decidedElsewhere = $0 { true } else { false }
    }
    #expect(elsewhere.count == 1, "\(second.events.all)")
    #expect(!second.events.all.contains { if case .decided = $0 { true } else { false } })
    #expect(try first.store.entryCount() == 1)
  }

  /// A reason newer than this build decides as a missing fact, and the decision's event, a
  /// warning, names the value.
  @Test func aReasonThisBuildDoesNotKnowIsNamedInTheDecidedEvent() async throws {
    let fixture = try WebhookFixture()
    var notification = SimulatedNotification()
    // Close to one of Apple's names, yet Apple signed it: a new value, not a typo to correct.
    notification.reason = "UNSATISFIED"
    let answer = await fixture.service.answer(body: try fixture.body(notification))
    #expect(answer.verdict == .decided)
    let decided = fixture.events.all.first { if case .decided = $0 { true } else { false } }
    guard case .decided(_, _, _, _, _, _, let problems)? = decided else {
      Issue.record("no decided event: \(fixture.events.all)")
      return
    }
    #expect(
      problems == [
        "unrecognized: consumptionRequestReason 'UNSATISFIED' is not one of Apple's values, so reason is missing"
      ])
    #expect(decided?.level == "warning")
  }
}
