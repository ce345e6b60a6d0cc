import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState

extension OutboxSender {
  /// Runs one entry through its state machine: postpones it while its app is paused or
  /// throttled, waits for the app's rate slot, polls, persists the `sending` state *before* the
  /// request, sends, and records the answer with the attempt.
  func process(_ original: OutboxEntry, isStopped: @Sendable () -> Bool) async throws
    -> OutboxAction
  {
    var entry = original
    if case .sending = entry.state {
      do {
        let action = try takeOverInterrupted(&entry, now: clock.now())
        // A Google Play answer that may have gone is not sent again: said, and done.
        if case .fail = action {
          try report(action, entry, now: clock.now())
          return action
        }
      } catch .changedConcurrently {
        return .none  // another sender took it over first
      }
    }
    let key = Self.limiterKey(entry.app)
    let started: Date
    if clock.now() < entry.deadline, !entry.state.isFinal {
      if let action = try postponeIfHeld(&entry, key) { return action }
      // The wait for the slot is measured once and slept off in half-second steps: a stop
      // (SIGTERM to `reckon send`) is not kept waiting for a slot far ahead (a low sandbox rate),
      // the entry staying as it is, and a wall clock stepped back (NTP) does not lengthen it.
      let reservedAt = clock.now()
      var wait = try store.reserveSendSlot(key, rate: rates(key), now: reservedAt)
        .timeIntervalSince(reservedAt)
      while wait > 0 {
        if isStopped() { return .none }
        let step = min(wait, 0.5)
        try await clock.sleep(until: clock.now().addingTimeInterval(step))
        wait -= step
      }
      if let action = try postponeIfHeld(&entry, key) { return action }
      // Stopping: an entry not yet sent stays as it is for the next start.
      if isStopped() { return .none }
      guard let admitted = try await admitStart(key, isStopped: isStopped) else { return .none }
      started = admitted
    } else {
      started = clock.now()
    }
    let action = entry.poll(now: started)
    switch action {
    case .send(let body, let app):
      if let stop = try await clearToSend(&entry, started: started) { return stop }
      let delivery = await sender.send(
        body, transactionId: entry.transactionId, app: app, before: sendBy(entry))
      let finished = clock.now()
      let next = entry.delivered(delivery, now: finished, backoff: backoff)
      try store.save(
        &entry, attempt: attempt(entry, delivery, next, started, finished), now: finished)
      try holdIfExpiredByThrottle(next, delivery, entry.app, now: finished)
      try report(next, entry, now: finished)
      return next
    case .sendAnswer(let answer, let packageName, let orderId):
      if let stop = try await clearToSend(&entry, started: started) { return stop }
      let delivery: ReviewRefundDelivery =
        if let answerSender {
          await answerSender.send(
            answer, packageName: packageName, orderId: orderId, before: entry.deadline)
        } else {
          // Nothing left: the entry is `sending` in the state, and it did not go.
          .notRecorded(
            reason: "no Google Play client is configured (googlePlay in reckon.json)",
            status: nil, retryAfterSeconds: nil)
        }
      let finished = clock.now()
      let next = entry.delivered(delivery, now: finished, backoff: backoff)
      try store.save(
        &entry, attempt: attempt(entry, delivery, next, started, finished), now: finished)
      try report(next, entry, now: finished)
      return next
    case .expire, .fail:
      // Recorded in the history too, so queue show says why beside the tries before it.
      let record = DeliveryAttempt(
        entryId: entry.id, startedAt: started, finishedAt: started, httpStatus: nil,
        errorCode: nil, errorMessage: entry.lastError, result: Self.resultName(action))
      do {
        try store.save(&entry, attempt: record, now: started)
      } catch .changedConcurrently {
        return .none
      }
      try report(action, entry, now: started)
      return action
    default:
      return .none
    }
  }

  /// Waits until a send for `key` may begin without more than its rate beginning in any second,
  /// by the state's shared window where several processes send, else by this one's; when it
  /// began, or nil when told to stop first.
  private func admitStart(_ key: String, isStopped: @Sendable () -> Bool) async throws(StateError)
    -> Date?
  {
    guard store.sharesSendStarts else {
      return await startWindow.admit(key, rate: rates(key), clock: clock, isStopped: isStopped)
    }
    while true {
      let now = clock.now()
      guard let free = try store.admitSendStart(key, rate: rates(key), now: now) else {
        return now
      }
      if isStopped() || Task.isCancelled { return nil }
      try? await clock.sleep(until: min(free, now.addingTimeInterval(0.5)))
    }
  }

  /// When an App Store send, marked `sending`, is given up: at Apple's deadline, or before its
  /// lease lapses, whichever comes first. A send still in flight when its lease lapses would be
  /// made again by another sender, beside this one. (A Google Play answer cut off might have
  /// gone, and is never sent again: it goes by its deadline alone.)
  func sendBy(_ entry: OutboxEntry) -> Date {
    guard case .sending(let since) = entry.state else { return entry.deadline }
    return min(entry.deadline, since.addingTimeInterval(sendLease - min(sendLease / 5, 10)))
  }

  /// What comes before either store's send: consent read again where due, then the `sending`
  /// state saved. Nil when the send may go; else what the entry's run returns (consent refused,
  /// or the entry changed since it was read).
  private func clearToSend(_ entry: inout OutboxEntry, started: Date) async throws(StateError)
    -> OutboxAction?
  {
    if let refused = await checkConsent(&entry, started: started) {
      do {
        try store.save(&entry, attempt: refused.attempt, now: clock.now())
      } catch .changedConcurrently {
        return OutboxAction.none
      }
      try report(refused.action, entry, now: clock.now())
      return refused.action
    }
    // Marked sending now, after the consent check, so the send's lease counts from here.
    let now = clock.now()
    if case .sending = entry.state { entry.state = .sending(since: now) }
    do {
      try store.save(&entry, now: now)
    } catch .changedConcurrently {
      return OutboxAction.none  // an operator changed it since it was read; the next drain sees it
    }
    return nil
  }

  /// Reads consent again for a reply decided `consentCheckAge` or more ago, or at a time that
  /// cannot be read; nil when it may go, else what became of the entry and the attempt to record.
  private func checkConsent(_ entry: inout OutboxEntry, started: Date) async
    -> (action: OutboxAction, attempt: DeliveryAttempt)?
  {
    guard let consentCheck,
      entry.createdAt.map({ started.timeIntervalSince($0) >= consentCheckAge }) ?? true
    else { return nil }
    let action: OutboxAction
    let reason: String
    switch await consentCheck.consent(for: entry) {
    case .given:
      // Reading consent can take a fact source's timeout: the deadline is checked again, so
      // no sender, ours or an embedder's, is handed a reply after it.
      let now = clock.now()
      guard now >= entry.deadline else { return nil }
      reason = "consent was confirmed only after the deadline"
      action = entry.poll(now: now)
    case .notGiven(let why):
      reason = why
      action = entry.consentNotGiven(why, now: clock.now())
    case .unknown(let why):
      reason = why
      action = entry.consentUnknown(why, now: clock.now(), backoff: backoff)
    }
    let attempt = DeliveryAttempt(
      entryId: entry.id, startedAt: started, finishedAt: clock.now(), httpStatus: nil,
      errorCode: nil, errorMessage: reason,
      result: Self.resultName(action))
    return (action, attempt)
  }

  /// Postpones `entry` to the end of its app's pause or throttle, if there is one now; nil when
  /// the entry may go ahead.
  private func postponeIfHeld(_ entry: inout OutboxEntry, _ key: String)
    throws(StateError) -> OutboxAction?
  {
    let now = clock.now()
    let throttled = try store.sendsHeldUntil(key, now: now)
    guard let until = paused.until(entry.app, now: now) ?? throttled else { return nil }
    let action = entry.postpone(until: until)
    do { try store.save(&entry, now: now) } catch .changedConcurrently {
      return OutboxAction.none  // already postponed with its app, or changed by an operator
    }
    return action
  }

  private func report(_ action: OutboxAction, _ entry: OutboxEntry, now: Date)
    throws(StateError)
  {
    switch action {
    case .recordSent:
      try store.sendAccepted(Self.limiterKey(entry.app))
      if paused.remove(entry.app) { try store.resume(entry.app) }
      events(
        .sent(entry: entry.id, transactionId: entry.transactionId, status: entry.lastStatus ?? 0))
    case .retry(let at):
      events(
        .retrying(
          entry: entry.id, transactionId: entry.transactionId, at: at,
          reason: entry.lastError ?? "", status: entry.lastStatus))
    case .throttleApp(let retryAfter):
      _ = try holdApp(entry.app, until: retryAfter, now: now)
    case .pauseApp(let reason):
      let until = now.addingTimeInterval(credentialsPause(for: entry.app))
      if paused.insert(entry.app, until: until, now: now) {
        try store.pause(entry.app, until: until, reason: reason)
        events(.credentialsProblem(app: entry.app, reason: reason, until: until))
      }
      try store.postponePending(
        entry.app, until: paused.until(entry.app, now: now) ?? until, now: now)
    case .fail(let reason):
      events(
        .failed(
          entry: entry.id, transactionId: entry.transactionId, reason: reason,
          status: entry.lastStatus))
    case .expire:
      events(
        .expired(
          entry: entry.id, transactionId: entry.transactionId, deadline: entry.deadline,
          maybeSent: entry.interruptedSends > 0))
    case .none, .wait, .send, .sendAnswer:
      break
    }
  }

  /// A 429 whose `Retry-After` lies past the entry's deadline expires the entry; Apple's limit
  /// still holds for the app's other entries.
  private func holdIfExpiredByThrottle(
    _ next: OutboxAction, _ delivery: ConsumptionDelivery, _ app: AppKey, now: Date
  ) throws(StateError) {
    guard next == .expire, case .answered(let answer) = delivery, answer.status == 429 else {
      return
    }
    _ = try holdApp(app, until: answer.retryAfter ?? now, now: now)
  }

  /// Holds every send for `app` after a 429, here and (recorded) for the next run, and moves
  /// its pending entries to the hold's end; returns when it ends.
  private func holdApp(_ app: AppKey, until retryAfter: Date, now: Date)
    throws(StateError) -> Date
  {
    let until = try store.holdSends(Self.limiterKey(app), until: retryAfter, now: now)
    try store.throttle(app, until: until, now: now)
    try store.postponePending(app, until: until, now: now)
    events(.throttled(app: app, until: until))
    return until
  }

  private func attempt(
    _ entry: OutboxEntry, _ delivery: ConsumptionDelivery, _ next: OutboxAction, _ started: Date,
    _ finished: Date
  ) -> DeliveryAttempt {
    var status: Int?
    var code: Int?
    var message: String?
    switch delivery {
    case .answered(let answer):
      status = answer.status
      code = answer.error?.errorCode
      message = answer.error?.errorMessage
    case .networkError(let reason), .notSigned(let reason):
      message = reason
    }
    return DeliveryAttempt(
      entryId: entry.id, startedAt: started, finishedAt: finished, httpStatus: status,
      errorCode: code,
      errorMessage: message, result: Self.resultName(next))
  }

  private func attempt(
    _ entry: OutboxEntry, _ delivery: ReviewRefundDelivery, _ next: OutboxAction,
    _ started: Date, _ finished: Date
  ) -> DeliveryAttempt {
    var status: Int?
    var message: String?
    switch delivery {
    case .recorded: status = 200
    case .rejected(let code, let reason):
      status = code
      message = reason
    case .notRecorded(let reason, let code, _):
      status = code
      message = reason
    case .noToken(let reason), .uncertain(let reason): message = reason
    }
    return DeliveryAttempt(
      entryId: entry.id, startedAt: started, finishedAt: finished, httpStatus: status,
      errorCode: nil, errorMessage: message, result: Self.resultName(next))
  }

  /// What an attempt that led to `next` is recorded as.
  private static func resultName(_ next: OutboxAction) -> String {
    switch next {
    case .recordSent: "sent"
    case .retry: "retry"
    case .throttleApp: "throttled"
    case .pauseApp: "credentials"
    case .fail: "failed"
    case .expire: "expired"
    case .none, .wait, .send, .sendAnswer: "none"
    }
  }
}

/// Apps whose sending is paused for a credentials problem, shared by concurrent sends.
final class PausedApps: @unchecked Sendable {
  private let lock = NSLock()
  private var until: [AppKey: Date] = [:]

  func load(from store: any StateStore, now: Date) throws(StateError) {
    let pauses = try store.pauses()
    lock.lock()
    defer { lock.unlock() }
    for pause in pauses where pause.until > now {
      until[pause.app] = max(until[pause.app] ?? pause.until, pause.until)
    }
  }

  /// When the pause of `app` ends, if it is paused at `now`.
  func until(_ app: AppKey, now: Date) -> Date? {
    lock.lock()
    defer { lock.unlock() }
    guard let end = until[app], end > now else { return nil }
    return end
  }

  /// Returns false when the app was already paused (so the problem is reported once).
  func insert(_ app: AppKey, until date: Date, now: Date) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let wasPaused = (until[app] ?? .distantPast) > now
    until[app] = date
    return !wasPaused
  }

  /// Returns whether the app had been paused.
  func remove(_ app: AppKey) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return until.removeValue(forKey: app) != nil
  }
}
