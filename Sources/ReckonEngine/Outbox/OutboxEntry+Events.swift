import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState

extension OutboxEntry {
  /// The sender looks at the entry at `now`: expire it, wait, release a hold, or send it.
  /// A body that no longer validates fails here and is never sent.
  public mutating func poll(now: Date) -> OutboxAction {
    guard !state.isFinal else { return .none }
    if now >= deadline {
      state = .expired(at: now)
      lastError =
        interruptedSends > 0
        ? "the deadline passed with no send confirmed; a send interrupted by a crash may have reached \(storeName)"
        : "the deadline passed before \(storeName) accepted the reply"
      return .expire
    }
    switch state {
    case .held(let releaseAt):
      guard now >= releaseAt else { return .wait(until: releaseAt) }
      state = .pending(notBefore: now)
      return poll(now: now)
    case .pending(let notBefore):
      guard now >= notBefore else { return .wait(until: notBefore) }
      if isGooglePlay { return pollAnswer(now: now) }
      // Queued by an older build, or by hand: Xcode's and LocalTesting's transactions are on
      // no Apple server, and a reply would go to the sandbox's.
      guard let storeApp = AppStoreApp(app), storeApp.environment.hasServerAPI else {
        let reason = "the \(app.environment) environment has no App Store Server API to answer"
        return failedBeforeSending(reason, now: now)
      }
      do {
        let validated = try ValidatedConsumptionBody(
          validating: body, context: ConsumptionValidationContext(context))
        state = .sending(since: now)
        return .send(validated, to: storeApp)
      } catch {
        return failedBeforeSending(error.description, now: now)
      }
    case .sending:
      return .none
    case .sent, .failed, .expired, .dropped:
      return .none
    }
  }

  /// The store the entry answers, as messages name it.
  var storeName: String { isGooglePlay ? "Google Play" : "Apple" }

  /// Whether the entry answers a Google Play review.
  public var isGooglePlay: Bool { app.environment == GooglePlayStore.environment }

  /// A due Google Play entry: its stored answer checked again, then sent.
  private mutating func pollAnswer(now: Date) -> OutboxAction {
    switch ValidatedReviewRefund.revalidated(from: body) {
    case .success(let validated)?:
      state = .sending(since: now)
      return .sendAnswer(validated, packageName: app.bundleId, orderId: transactionId)
    case .failure(let rejection)?:
      return failedBeforeSending(rejection.description, now: now)
    case nil:
      return failedBeforeSending("the stored body is not a Google Play review answer", now: now)
    }
  }

  /// The entry fails for good without a send: the last answer, from an earlier try, is not
  /// what failed it, so it is not kept beside the reason.
  private mutating func failedBeforeSending(_ reason: String, now: Date) -> OutboxAction {
    state = .failed(at: now, reason: reason)
    lastStatus = nil
    lastError = reason
    return .fail(reason: reason)
  }

  /// A consent check just before the send found no consent: the reply is never sent.
  public mutating func consentNotGiven(_ reason: String, now: Date) -> OutboxAction {
    guard case .sending = state else { return .none }
    let why = "not sent without the customer's consent: \(reason)"
    state = .failed(at: now, reason: why)
    lastStatus = nil
    lastError = why
    return .fail(reason: why)
  }

  /// A consent check just before the send could not read consent: the reply waits and the
  /// check is tried again, with backoff, as after a network error.
  public mutating func consentUnknown(_ reason: String, now: Date, backoff: Backoff)
    -> OutboxAction
  {
    guard case .sending = state else { return .none }
    return retryWithBackoff(
      "consent could not be checked: \(reason)", status: nil, now: now, backoff: backoff)
  }

  /// The sender found the entry's app paused or throttled until `until`: it goes out then,
  /// not now, and waits in the database rather than in a send slot other apps need.
  public mutating func postpone(until: Date) -> OutboxAction {
    switch state {
    case .held, .pending:
      state = .pending(notBefore: until)
      return .wait(until: until)
    case .sending, .sent, .failed, .expired, .dropped:
      return .none
    }
  }

  /// The entry was found `sending` at startup: the send may or may not have reached the store.
  /// Apple's is sent again (Apple accepts an updated reply within the window), and counted.
  /// Google's is not: Google records only the first call, so the entry fails as uncertain and
  /// an operator decides (`reckon queue retry` sends the same answer again).
  public mutating func recoverInterruptedSend(now: Date) -> OutboxAction {
    guard case .sending = state else { return .none }
    interruptedSends += 1
    if isGooglePlay {
      return uncertain("the process stopped during the send", now: now)
    }
    state = .pending(notBefore: now)
    return .retry(at: now)
  }

  /// What Google Play (or the network) answered to a send. Only a send Google surely did not
  /// record is tried again on its own.
  public mutating func delivered(_ delivery: ReviewRefundDelivery, now: Date, backoff: Backoff)
    -> OutboxAction
  {
    guard case .sending = state else { return .none }
    switch delivery {
    case .recorded:
      state = .sent(at: now)
      lastStatus = 200
      lastError = nil
      return .recordSent
    case .rejected(let status, let reason):
      lastStatus = status
      state = .failed(at: now, reason: reason)
      lastError = reason
      return .fail(reason: reason)
    case .noToken(let reason):
      return credentialsProblem("no access token: \(reason)", status: nil, now: now)
    case .notRecorded(let reason, let status, let retryAfter):
      if status == 401 || status == 403 {
        return credentialsProblem(reason, status: status, now: now)
      }
      if status == 429 {
        lastStatus = 429
        let until = max(
          retryAfter.map { now.addingTimeInterval(TimeInterval($0)) }
            ?? backoff.delay(after: 1, from: now),
          now.addingTimeInterval(RateLimiter.minimumHold))
        guard until < deadline else {
          return expire(now: now, because: "rate limited past the deadline")
        }
        state = .pending(notBefore: until)
        lastError = "\(reason): rate limited until \(until.formatted(.iso8601))"
        return .throttleApp(until: until)
      }
      return retryWithBackoff(
        reason, status: status, now: now, backoff: backoff,
        notBefore: retryAfter.map { now.addingTimeInterval(TimeInterval($0)) })
    case .uncertain(let reason):
      return uncertain(reason, now: now)
    }
  }

  /// Fails an entry Google may have recorded: never sent again on its own.
  private mutating func uncertain(_ reason: String, now: Date) -> OutboxAction {
    let why =
      "uncertain: \(reason); Google may have recorded this answer and records only the first, "
      + "so it is not sent again on its own ('reckon queue retry \(id)' sends the same answer)"
    state = .failed(at: now, reason: why)
    lastError = why
    return .fail(reason: why)
  }

  /// What Apple (or the network) answered to a send.
  public mutating func delivered(_ delivery: ConsumptionDelivery, now: Date, backoff: Backoff)
    -> OutboxAction
  {
    guard case .sending = state else { return .none }
    switch delivery {
    case .notSigned(let reason):
      return credentialsProblem("no token could be signed: \(reason)", status: nil, now: now)
    case .networkError(let reason):
      return retryWithBackoff("network error: \(reason)", status: nil, now: now, backoff: backoff)
    case .answered(let answer):
      return answered(answer, now: now, backoff: backoff)
    }
  }

  private mutating func answered(_ answer: ConsumptionAnswer, now: Date, backoff: Backoff)
    -> OutboxAction
  {
    lastStatus = answer.status
    let apple = answer.error.map { " \($0.errorCode) \($0.errorMessage)" } ?? ""
    switch answer.status {
    case 202:
      state = .sent(at: now)
      lastError = nil
      return .recordSent
    case 200..<300:
      // Apple answers Send Consumption Information with 202 only; another success code comes
      // from something else (a proxy, a wrong `appStore.baseURL`), so the reply is not known
      // to have reached Apple.
      return retryWithBackoff(
        "HTTP \(answer.status): Apple answers 202; is appStore.baseURL Apple's?",
        status: answer.status, now: now, backoff: backoff)
    case 429:
      // Never sooner than a second: a Retry-After of now or the past (our clock ahead of
      // Apple's) would otherwise be tried again at once, over and over, until the deadline.
      let until = max(
        answer.retryAfter ?? backoff.delay(after: 1, from: now),
        now.addingTimeInterval(RateLimiter.minimumHold))
      guard until < deadline else {
        return expire(now: now, because: "rate limited past the deadline")
      }
      state = .pending(notBefore: until)
      lastError = "HTTP 429\(apple): rate limited until \(until.formatted(.iso8601))"
      return .throttleApp(until: until)
    case 401, 403:
      return credentialsProblem("HTTP \(answer.status)\(apple)", status: answer.status, now: now)
    case 500..<600:
      return retryWithBackoff(
        "HTTP \(answer.status)\(apple)", status: answer.status, now: now, backoff: backoff,
        notBefore: answer.retryAfter)
    default:
      if answer.error?.code.isRetryable == true {
        return retryWithBackoff(
          "HTTP \(answer.status)\(apple)", status: answer.status, now: now, backoff: backoff)
      }
      let reason = "HTTP \(answer.status)\(apple)"
      state = .failed(at: now, reason: reason)
      lastError = reason
      return .fail(reason: reason)
    }
  }

  private mutating func credentialsProblem(_ reason: String, status: Int?, now: Date)
    -> OutboxAction
  {
    // Not the entry's fault: no attempt is counted and it goes out as soon as the app resumes.
    state = .pending(notBefore: now)
    // The status goes with the error it explains: an earlier answer's would misname this one.
    lastStatus = status
    lastError = "credentials problem: \(reason)"
    return .pauseApp(reason: reason)
  }

  /// Tries again after the backoff, or later where the store said when (a 503's Retry-After).
  private mutating func retryWithBackoff(
    _ reason: String, status: Int?, now: Date, backoff: Backoff, notBefore: Date? = nil
  ) -> OutboxAction {
    attempts += 1
    lastStatus = status
    lastError = reason
    var next = max(backoff.delay(after: attempts, from: now), notBefore ?? .distantPast)
    if next >= deadline {
      // One last try shortly before the deadline rather than none.
      next = deadline.addingTimeInterval(-backoff.lastChanceMargin)
      guard next > now else { return expire(now: now, because: reason) }
    }
    state = .pending(notBefore: next)
    return .retry(at: next)
  }

  private mutating func expire(now: Date, because reason: String) -> OutboxAction {
    state = .expired(at: now)
    lastError = "expired: \(reason)"
    return .expire
  }
}
