import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonEngine

@Suite struct OutboxEntryTests {
  let start = TestState.start
  let backoff = Backoff(initial: 30, maximum: 1_800, random: { 0 })

  func entry(body: Data = TestState.validBody, state: OutboxState? = nil) -> OutboxEntry {
    OutboxEntry(
      id: 1, decisionId: 1, requestId: 1, app: TestState.app.key, transactionId: "1000",
      context: .init(), body: body,
      deadline: start.addingTimeInterval(12 * 3_600), state: state ?? .pending(notBefore: start))
  }

  func sending() -> OutboxEntry {
    var entry = entry()
    _ = entry.poll(now: start)
    return entry
  }

  @Test func aDueEntryIsValidatedAndMarkedSendingBeforeItIsSent() throws {
    var entry = entry()
    let action = entry.poll(now: start)
    #expect(
      action
        == .send(
          try ValidatedConsumptionBody(validating: TestState.validBody, context: .init()),
          to: TestState.app))
    #expect(entry.state == .sending(since: start))
  }

  @Test func aBodyThatNoLongerValidatesFailsInsteadOfBeingSent() {
    var entry = entry(body: Data(#"{"customerConsented":false}"#.utf8))
    guard case .fail = entry.poll(now: start) else {
      Issue.record("expected fail")
      return
    }
    #expect(entry.state.name == "failed")
  }

  /// Queued by a build from before such entries were kept out of the queue: never sent.
  @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
  func anEntryOfALocalEnvironmentFailsInsteadOfBeingSent(environment: AppStoreEnvironment) {
    var entry = OutboxEntry(
      id: 1, decisionId: 1, requestId: 1,
      app: AppStoreApp(bundleId: TestState.app.bundleId, environment: environment).key,
      transactionId: "1000", context: .init(), body: TestState.validBody,
      deadline: start.addingTimeInterval(12 * 3_600), state: .pending(notBefore: start))
    let reason = "the \(environment.rawValue) environment has no App Store Server API to answer"
    #expect(entry.poll(now: start) == .fail(reason: reason))
    #expect(entry.state == .failed(at: start, reason: reason))
  }

  @Test func nothingIsSentAtOrAfterTheDeadline() {
    var entry = entry()
    #expect(entry.poll(now: start.addingTimeInterval(12 * 3_600)) == .expire)
    #expect(entry.state == .expired(at: start.addingTimeInterval(12 * 3_600)))
    #expect(entry.poll(now: start.addingTimeInterval(13 * 3_600)) == .none)
  }

  @Test func aHeldEntryWaitsThenGoesOutAsDecided() {
    var entry = entry(state: .held(releaseAt: start.addingTimeInterval(11 * 3_600)))
    #expect(entry.poll(now: start) == .wait(until: start.addingTimeInterval(11 * 3_600)))
    guard case .send = entry.poll(now: start.addingTimeInterval(11 * 3_600)) else {
      Issue.record("not released")
      return
    }
  }

  @Test func approvingAHeldEntrySendsItNow() throws {
    var entry = entry(state: .held(releaseAt: start.addingTimeInterval(11 * 3_600)))
    try entry.approve(now: start)
    guard case .send = entry.poll(now: start) else {
      Issue.record("not sent")
      return
    }
  }

  @Test func approvingAHeldEntryPastItsDeadlineIsRefusedAndItStaysHeld() {
    let held = OutboxState.held(releaseAt: start.addingTimeInterval(11 * 3_600))
    var entry = entry(state: held)
    let refusal = #expect(throws: OutboxCommandRefused.self) {
      try entry.approve(now: start.addingTimeInterval(12 * 3_600))
    }
    #expect(refusal?.description.contains("has passed") == true)
    #expect(entry.state == held)
  }

  @Test func retryingAHeldEntryIsRefusedPointingToApproveAndSet() {
    let held = OutboxState.held(releaseAt: start.addingTimeInterval(11 * 3_600))
    var entry = entry(state: held)
    let refusal = #expect(throws: OutboxCommandRefused.self) { try entry.retry(now: start) }
    #expect(refusal?.description.contains("reckon queue approve 1") == true)
    #expect(refusal?.description.contains("reckon queue set 1") == true)
    #expect(entry.state == held)
    #expect(entry.poll(now: start) == .wait(until: start.addingTimeInterval(11 * 3_600)))
  }

  @Test(arguments: [
    OutboxState.failed(at: TestState.start, reason: "400"),
    .pending(notBefore: TestState.start.addingTimeInterval(600)),
  ])
  func retryingAFailedOrPendingEntrySendsItNow(state: OutboxState) throws {
    var entry = entry(state: state)
    try entry.retry(now: start.addingTimeInterval(60))
    #expect(entry.state == .pending(notBefore: start.addingTimeInterval(60)))
  }

  /// The deadline is named in ISO 8601, as every other message names times.
  @Test func retryingAfterTheDeadlineNamesItInISO8601() {
    var entry = entry(state: .failed(at: start, reason: "HTTP 500"))
    let after = start.addingTimeInterval(13 * 3_600)
    let refusal = #expect(throws: OutboxCommandRefused.self) { try entry.retry(now: after) }
    let deadline = start.addingTimeInterval(12 * 3_600).formatted(.iso8601)
    #expect(
      refusal?.description.contains("its deadline \(deadline) has passed") == true,
      "\(String(describing: refusal))")
    #expect(deadline.hasSuffix("Z"))
  }

  /// As approve and retry do: the sender would only expire it, so "pending" would mislead.
  @Test(arguments: [
    OutboxState.held(releaseAt: TestState.start.addingTimeInterval(11 * 3_600)),
    .pending(notBefore: TestState.start),
  ])
  func editingAnEntryPastItsDeadlineIsRefusedAndItStaysAsItWas(state: OutboxState) {
    var entry = entry(state: state)
    let refusal = #expect(throws: OutboxCommandRefused.self) {
      try entry.edit(body: TestState.validBody, now: start.addingTimeInterval(12 * 3_600 + 100))
    }
    #expect(refusal?.description.contains("has passed") == true)
    #expect(entry.state == state)
  }

  /// A body Apple refused with 400 is put right by editing it: retry alone sends the same bytes.
  @Test func editingAFailedEntrySendsTheNewBodyNow() throws {
    var entry = entry(state: .failed(at: start, reason: "HTTP 400"))
    let edited = Data(
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
        .utf8)
    try entry.edit(body: edited, now: start.addingTimeInterval(60))
    #expect(entry.state == .pending(notBefore: start.addingTimeInterval(60)))
    #expect(entry.body == edited)
  }

  @Test(arguments: [
    OutboxState.sent(at: TestState.start), .expired(at: TestState.start),
    .dropped(at: TestState.start),
  ])
  func aFinishedEntryCannotBeEdited(state: OutboxState) {
    var entry = entry(state: state)
    let refusal = #expect(throws: OutboxCommandRefused.self) {
      try entry.edit(body: TestState.validBody, now: start)
    }
    #expect(refusal?.description.contains("held, pending or failed") == true)
    #expect(entry.state == state)
  }

  @Test func editingRefusesABodyThatBreaksAppleRules() {
    var entry = entry(state: .held(releaseAt: start.addingTimeInterval(11 * 3_600)))
    let bad = Data(
      #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":true,"consumptionPercentage":5}"#
        .utf8)
    #expect(throws: OutboxCommandRefused.self) { try entry.edit(body: bad, now: start) }
    #expect(entry.body == TestState.validBody)
  }

  @Test func accepted202MarksSent() {
    var entry = sending()
    #expect(
      entry.delivered(.answered(.init(status: 202)), now: start, backoff: backoff) == .recordSent)
    #expect(entry.state == .sent(at: start))
  }

  @Test(arguments: [200, 201, 204])
  func anotherSuccessCodeIsNotTakenForApplesAcceptanceAndIsRetried(status: Int) {
    var entry = sending()
    #expect(
      entry.delivered(.answered(.init(status: status)), now: start, backoff: backoff)
        == .retry(at: start.addingTimeInterval(15)))
    #expect(entry.state == .pending(notBefore: start.addingTimeInterval(15)))
    #expect(entry.lastError?.contains("Apple answers 202") == true)
  }

  @Test func rateLimitWaitsUntilRetryAfter() {
    var entry = sending()
    let later = start.addingTimeInterval(90)
    #expect(
      entry.delivered(
        .answered(.init(status: 429, retryAfter: later)), now: start, backoff: backoff)
        == .throttleApp(until: later))
    #expect(entry.state == .pending(notBefore: later))
    #expect(entry.attempts == 0)
    // The time as every other message writes one.
    #expect(
      entry.lastError?.hasSuffix("rate limited until \(later.formatted(.iso8601))") == true,
      "\(String(describing: entry.lastError))")
  }

  @Test(arguments: [0.0, -5.0, 0.4])
  func aRetryAfterOfNowOrThePastWaitsASecondRatherThanRetryingAtOnce(offset: Double) {
    var entry = sending()
    let retryAfter = start.addingTimeInterval(offset)
    let second = start.addingTimeInterval(1)
    #expect(
      entry.delivered(
        .answered(.init(status: 429, retryAfter: retryAfter)), now: start, backoff: backoff)
        == .throttleApp(until: second))
    #expect(entry.state == .pending(notBefore: second))
  }

  @Test func anEntryPostponedForItsAppGoesOutThenAndAFinishedOneIsLeftAlone() {
    let later = start.addingTimeInterval(300)
    var pending = sending()
    _ = pending.delivered(.answered(.init(status: 401)), now: start, backoff: backoff)
    #expect(pending.postpone(until: later) == .wait(until: later))
    #expect(pending.state == .pending(notBefore: later))
    var sent = sending()
    _ = sent.delivered(.answered(.init(status: 202)), now: start, backoff: backoff)
    #expect(sent.postpone(until: later) == .none)
    #expect(sent.state == .sent(at: start))
  }

  @Test(arguments: [500, 502, 503])
  func serverErrorsBackOffExponentially(status: Int) {
    var entry = sending()
    #expect(
      entry.delivered(.answered(.init(status: status)), now: start, backoff: backoff)
        == .retry(at: start.addingTimeInterval(15)))
    _ = entry.poll(now: start.addingTimeInterval(15))
    #expect(
      entry.delivered(.networkError("reset"), now: start, backoff: backoff)
        == .retry(at: start.addingTimeInterval(30)))
    #expect(entry.attempts == 2)
  }

  /// A 503 that says when to come back is tried no sooner, nor sooner than the backoff.
  @Test(arguments: [(600.0, 600.0), (5, 15)])
  func aServerErrorsRetryAfterIsKept(retryAfter: Double, expected: Double) {
    var entry = sending()
    #expect(
      entry.delivered(
        .answered(.init(status: 503, retryAfter: start.addingTimeInterval(retryAfter))),
        now: start, backoff: backoff) == .retry(at: start.addingTimeInterval(expected)))
  }

  /// So is Google's, for an answer Google surely did not record.
  @Test(arguments: [(600, 600.0), (5, 15)])
  func googlesRetryAfterOfA503IsKept(retryAfter: Int, expected: Double) {
    var entry = OutboxEntry(
      id: 1, decisionId: 1, requestId: 1,
      app: AppKey(bundleId: "com.example.coins", environment: GooglePlayStore.environment),
      transactionId: "GPA.1", context: .init(), body: OutboxFixture.answer,
      deadline: start.addingTimeInterval(24 * 3_600), state: .pending(notBefore: start))
    guard case .sendAnswer = entry.poll(now: start) else {
      Issue.record("not sent")
      return
    }
    let delivery = ReviewRefundDelivery.notRecorded(
      reason: "HTTP 503", status: 503, retryAfterSeconds: retryAfter)
    #expect(
      entry.delivered(delivery, now: start, backoff: backoff)
        == .retry(at: start.addingTimeInterval(expected)))
  }

  /// The last status goes with the last error: a 401 followed by network errors is not shown as
  /// "HTTP 401 (network error …)", which would send an operator to the credentials.
  @Test func aFailureWithoutAnAnswerClearsTheLastStatus() {
    var entry = sending()
    _ = entry.delivered(.answered(.init(status: 500)), now: start, backoff: backoff)
    #expect(entry.lastStatus == 500)
    _ = entry.poll(now: start.addingTimeInterval(15))
    _ = entry.delivered(.networkError("connection refused"), now: start, backoff: backoff)
    #expect(entry.lastStatus == nil)
    #expect(entry.lastError == "network error: connection refused")
    _ = entry.poll(now: start.addingTimeInterval(60))
    _ = entry.delivered(.answered(.init(status: 401)), now: start, backoff: backoff)
    #expect(entry.lastStatus == 401)
    _ = entry.poll(now: start.addingTimeInterval(61))
    _ = entry.delivered(.notSigned("key unreadable"), now: start, backoff: backoff)
    #expect(entry.lastStatus == nil)
  }

  @Test func backoffPastTheDeadlineBecomesALastTryJustBeforeIt() {
    var entry = sending()
    let late = start.addingTimeInterval(12 * 3_600 - 100)
    let action = entry.delivered(
      .answered(.init(status: 500)), now: late,
      backoff: Backoff(initial: 3_600, maximum: 3_600, random: { 0 }))
    #expect(action == .retry(at: start.addingTimeInterval(12 * 3_600 - 60)))
  }

  @Test(arguments: [400, 404])
  func badRequestAndNotFoundStopWithApplesCode(status: Int) {
    var entry = sending()
    let error = AppStoreAPIErrorBody(
      errorCode: 4_040_010, errorMessage: "Transaction id not found.")
    guard
      case .fail(let reason) = entry.delivered(
        .answered(.init(status: status, error: error)), now: start, backoff: backoff)
    else {
      Issue.record("expected fail")
      return
    }
    #expect(reason.contains("4040010"))
    #expect(entry.state.isFinal)
    #expect(entry.failedTries == 1, "a failed entry shows the try that failed it")
    #expect(entry.attempts == 0, "a 4xx alone sets no backoff")
    // An operator moves it on: retried, changed or dropped, the try that failed it still counts.
    for command in ["retry", "set", "drop"] {
      var moved = entry
      switch command {
      case "retry": try? moved.retry(now: start)
      case "set": try? moved.edit(body: moved.body, now: start)
      default: try? moved.drop(now: start)
      }
      #expect(!moved.state.isFinal || command == "drop", "\(command): \(moved.state)")
      #expect(moved.failedTries == 1, "\(command) keeps the try that failed it")
    }
  }

  /// Failed for another reason than Apple's answer (consent withdrawn) after a credentials
  /// pause: the pause's 401 is the last status, and still no try failed.
  @Test func aFailureOfAnotherKindCountsNoFailedTry() {
    var entry = sending()
    _ = entry.delivered(.answered(.init(status: 401)), now: start, backoff: backoff)
    var failed = self.entry(state: .failed(at: start, reason: "the customer withdrew consent"))
    failed.lastStatus = entry.lastStatus
    #expect(failed.lastStatus == 401)
    #expect(failed.failedTries == 0)
  }

  @Test(arguments: [401, 403])
  func credentialsProblemsPauseTheAppWithoutCountingAnAttempt(status: Int) {
    var entry = sending()
    guard
      case .pauseApp = entry.delivered(
        .answered(.init(status: status)), now: start, backoff: backoff)
    else {
      Issue.record("expected pause")
      return
    }
    #expect(entry.attempts == 0)
    #expect(entry.state == .pending(notBefore: start))
  }

  @Test func aSendInterruptedByACrashIsSentAgainAndCounted() {
    var entry = sending()
    #expect(entry.recoverInterruptedSend(now: start) == .retry(at: start))
    #expect(entry.interruptedSends == 1)
  }

  @Test func backoffIsCappedAndJittered() {
    let low = Backoff(initial: 30, maximum: 100, random: { 0 })
    let high = Backoff(initial: 30, maximum: 100, random: { 0.999 })
    #expect(low.delay(after: 10, from: start) == start.addingTimeInterval(50))
    #expect(high.delay(after: 1, from: start).timeIntervalSince(start) > 29.9)
  }
}
