import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonState

extension NotificationPipeline {
  /// The answer's field naming the decision another service on the database made first.
  static let decidedElsewhere = RecordedRequestDecision.decidedElsewhere

  /// Decides a recorded CONSUMPTION_REQUEST and stores the decision with its outbox entry. The
  /// request is already recorded, so whatever happens here the answer is 200; a request that
  /// cannot be decided now stays undecided for `retryUndecided()`.
  func decide(_ verified: VerifiedNotification, requestId: Int64, receivedAt: Date) async
    -> WebhookAnswer
  {
    await RecordedRequestDecision.answer(
      requestId: requestId, type: verified.payload.rawNotificationType, store: store,
      events: events
    ) { await decideClaimed(verified, requestId: requestId, receivedAt: receivedAt) }
  }

  /// Decides the recorded CONSUMPTION_REQUESTs left undecided (a fact source failed, or the
  /// process stopped before deciding) that are still before their deadline and due to be
  /// tried: one whose retry fails waits `retryDelay(afterFailures:)`, so a few that keep
  /// failing do not take every pass from the others. Reports, once each, those whose deadline
  /// passed undecided. Returns how many were decided now; once `isStopped`, no further request
  /// is taken up (the one under way finishes).
  @discardableResult
  public func retryUndecided(
    olderThan age: TimeInterval = 1, isStopped: @Sendable () -> Bool = { false }
  ) async -> Int {
    let at = now()
    let lapsedProblem = reportLapsed(now: at)
    let waiting: [UndecidedRequest]
    do {
      waiting = try store.undecidedRequests(before: at.addingTimeInterval(-age), now: at)
    } catch {
      // Said, so a database that cannot be read does not pass for nothing to retry; once a
      // pass, though the lapsed requests could not be read either.
      events(.retryFailed(reason: error.description))
      return 0
    }
    if let lapsedProblem { events(.retryFailed(reason: lapsedProblem.description)) }
    var decided = 0
    for request in waiting {
      if isStopped() { break }
      guard (try? store.claimRequest(request.requestId)) == true else { continue }
      defer { try? store.releaseRequest(request.requestId) }
      if await RequestLogContext.within(logContext(of: request), { await retryClaimed(request) }) {
        decided += 1
      }
    }
    return decided
  }

  /// The log context of `request`: the one it arrived with, while it is kept, else a new one.
  private func logContext(of request: UndecidedRequest) -> RequestLogContext {
    if let kept = requestLogs.context(for: request.requestId) { return kept }
    let context = RequestLogContext()
    context.note(requestId: request.requestId)
    return requestLogs.keep(context, for: request.requestId)
  }

  /// Decides one claimed undecided request, or puts it off; whether it was decided here.
  private func retryClaimed(_ request: UndecidedRequest) async -> Bool {
    guard (try? store.hasDecision(requestId: request.requestId)) == false else { return false }
    if request.environment == GooglePlayStore.environment {
      guard let googlePlay else {
        postpone(request, because: "no Google Play app is configured to decide it")
        return false
      }
      switch await googlePlay.retry(request) {
      case .success(let decidedHere): return decidedHere
      case .failure(let reason):
        postpone(request, because: reason.description)
        return false
      }
    }
    let verified: VerifiedNotification
    do { verified = try verifier.verify(body: request.rawNotification) } catch {
      postpone(request, because: "no longer verifies: \(error)")
      return false
    }
    RequestLogContext.current?.note(
      notificationUUID: verified.payload.notificationUUID,
      transactionId: verified.transaction?.transactionId, app: verified.app.bundleId)
    switch await decideClaimed(
      verified, requestId: request.requestId, receivedAt: request.receivedAt)
    {
    case .success(let fields) where fields[Self.decidedElsewhere] != nil: return false
    case .success: return true
    case .failure(let reason):
      postpone(request, because: reason.description)
      return false
    }
  }

  /// How long an undecided request waits after `failures` failed retries, the last included:
  /// a minute, doubling up to ten, so one that starts to decide again waits at most that long.
  public static func retryDelay(afterFailures failures: Int) -> TimeInterval {
    min(600, 60 * pow(2, Double(max(0, min(failures, 10) - 1))))
  }

  /// Reports, once each, the requests whose deadline passed undecided: marked first, so a
  /// failed write leaves one to report at the next pass rather than report it at every pass.
  /// Returns what failed, for the pass to say; a failure here keeps none of the retries from
  /// running.
  private func reportLapsed(now: Date) -> StateError? {
    do throws(StateError) {
      for request in try store.lapsedRequests(now: now) {
        try store.markLapsed(requestId: request.requestId, at: now)
        events(.undecidedExpired(request))
      }
      return nil
    } catch {
      return error
    }
  }

  /// Puts the next try off, from now: a pass can take many fact-source timeouts, and a delay
  /// counted from its start would have run out before the pass ended.
  private func postpone(_ request: UndecidedRequest, because reason: String) {
    let now = now()
    let delay = Self.retryDelay(afterFailures: request.retries + 1)
    events(
      .deferred(
        requestId: request.requestId,
        reason: "\(reason) (retry \(request.retries + 1); next in \(Int(delay)) s)"))
    // A failed write leaves the request due at the next pass, as before there was a delay.
    try? store.postponeRetry(
      requestId: request.requestId, until: now.addingTimeInterval(delay), reason: reason)
  }

  private func decideClaimed(
    _ verified: VerifiedNotification, requestId: Int64, receivedAt: Date
  ) async -> Result<[String: String], DeferReason> {
    let app = AppStoreApp(bundleId: verified.app.bundleId, environment: verified.app.environment)
    guard let transaction = verified.transaction, let transactionId = transaction.transactionId
    else { return .failure(.noTransaction) }
    guard let entry = policies.entry(for: app) else { return .failure(.noPolicy(app)) }
    RequestLogContext.current?.note(
      policyVersion: entry.policy.checked.version, sha256: entry.textSHA256)
    let request = RefundRequest(
      notification: verified.payload, transaction: transaction, receivedAt: receivedAt)
    let facts: GatheredFacts
    switch await gatherer.gather(request, reading: entry.reads) {
    case .ready(let gathered): facts = gathered
    case .retry(let failure): return .failure(.facts(failure))
    }
    let decision = Decider(policy: entry.policy, schema: policies.schema).decide(
      request, facts: facts, trace: true)
    let record = DecisionRecord(
      decision: decision, policy: entry.policy, policySHA256: entry.textSHA256)
    let receipt: DecisionReceipt
    do {
      receipt = try store.recordDecision(
        record, requestId: requestId,
        enqueue: try enqueue(
          decision, body: record.body, app: app, request: request, transactionId: transactionId))
    } catch {
      return .failure(.notStored(error))
    }
    return .success(
      RecordedRequestDecision.stored(
        record, receipt: receipt, requestId: requestId, transactionId: transactionId,
        factProblems: facts.failures.map { "unavailable: \($0)" }
          + facts.refused.map { "refused: \($0)" }
          // A value newer than this build (a reason Apple added) decides as a missing fact.
          + request.unrecognizedValues.map { "unrecognized: \($0.withoutSuggestion)" },
        events: events))
  }

  /// The outbox entry for `decision`, whose reply the record wrote as `body`.
  private func enqueue(
    _ decision: Decision, body: Data?, app: AppStoreApp, request: RefundRequest,
    transactionId: String
  ) throws(StateError) -> OutboxEnqueue? {
    let holdUntil: Date?
    switch decision.action {
    case .respond: holdUntil = nil
    case .hold:
      // A fifth of the window at most, so a sandbox hold (5 minutes) still waits for approval.
      let lead = min(holdRelease, app.environment.consumptionReplyWindow / 5)
      holdUntil = request.deadline.addingTimeInterval(-lead)
    case .skip: return nil
    }
    // Xcode's and LocalTesting's transactions live on no Apple server: a reply could only fail
    // (or, sent to the sandbox, reach a transaction that is not this one). Decided and recorded,
    // so a developer sees what the policy does, and never queued.
    guard app.environment.hasServerAPI else { return nil }
    // The record's body is the reply's bytes as sent (`ReplyBody.json`), written once.
    guard decision.body != nil, let body else { return nil }
    // Checked here, before anything is written: a body that breaks Apple's rules is refused
    // and the decision with it.
    let checked = try CheckedBody(
      appStore: body, context: ConsumptionValidationContext(transaction: request.transaction))
    return OutboxEnqueue(
      app: app.key, transactionId: transactionId, body: checked, deadline: request.deadline,
      holdUntil: holdUntil)
  }
}

/// Why a recorded request was not decided now.
enum DeferReason: Error, CustomStringConvertible {
  case noTransaction
  case noPolicy(AppStoreApp)
  case noPolicyFor(AppKey)
  case facts(FactGatheringFailure)
  case notStored(StateError)
  /// The recorded notification cannot be read again.
  case unreadable

  var description: String {
    switch self {
    case .noTransaction: "the notification carries no transaction"
    case .noPolicy(let app): "no policy is configured for \(app)"
    case .noPolicyFor(let app): "no policy is configured for \(app)"
    case .unreadable: "the recorded notification cannot be read again"
    case .facts(let failure): failure.description
    case .notStored(let error): "the decision could not be stored: \(error)"
    }
  }

  /// Why, as the webhook's answer says it: a fact source's or the state database's own error
  /// (a path, a query, SQLite's message) stays in the log.
  var answered: String {
    switch self {
    case .notStored: "the decision could not be stored; it is retried"
    case .facts: "a fact source could not answer; the request is decided when it does"
    case .noTransaction, .noPolicy, .noPolicyFor, .unreadable: description
    }
  }
}
