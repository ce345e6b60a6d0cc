import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState

/// The I/O side of the outbox: takes due entries from the state database, paces them per app,
/// runs each entry's state machine, does what its actions say (persist, send, pause, report)
/// and records every attempt. Whoever runs it holds the state's sender lease
/// (`ReckonService.runSender`, `reckon serve` and `reckon send` do); the sender itself takes none.
/// A send is claimed by saving its entry `sending`; one left so by a sender that stopped is taken
/// over once its lease lapses, or at once by a sender whose lease is exclusive.
public final class OutboxSender: Sendable {
  /// What one drain did.
  public struct Summary: Hashable, Sendable {
    /// Entries Apple accepted.
    public var sent = 0
    /// Entries scheduled for another try (5xx, network, 429, credentials).
    public var retrying = 0
    /// Entries refused for good.
    public var failed = 0
    /// Entries whose deadline passed.
    public var expired = 0
  }

  let store: any StateStore
  let sender: any ConsumptionSender
  /// Where Google Play answers go; nil when no Google Play app is configured.
  let answerSender: (any ReviewRefundSender)?
  let clock: any OutboxClock
  let rates: @Sendable (String) -> Double
  let backoff: Backoff
  let sendLease: TimeInterval
  let credentialsPause: TimeInterval
  let maximumConcurrentSends: Int
  let events: @Sendable (SenderEvent) -> Void
  let paused = PausedApps()
  /// The sends this process began in the last second, per app.
  let startWindow = StartWindow()
  let consentCheck: (any ConsentCheck)?
  let consentCheckAge: TimeInterval
  /// The log contexts of the requests entries answer, so an entry's lines carry its request's.
  public let requestLogs: RequestLogBook
  /// The apps whose entries this sender takes (all when nil): its configuration's. Another
  /// app's entry is another sender's, with its own credentials and pace.
  public let apps: Set<AppKey>?

  /// A sender over `store` delivering through `sender`, paced and retried as `configuration` says,
  /// taking the entries of `apps` alone when given.
  /// With `consentCheck`, a reply whose decision is `consentCheckAge` seconds old or more has
  /// the customer's consent read again before it goes; it has no default, so a sender without
  /// one (`nil`) is chosen, never an oversight. A send still unanswered `sendLeaseSeconds`
  /// (by default the configuration's) after it began is taken for one whose sender stopped,
  /// and made again.
  public init(
    store: any StateStore, sender: any ConsumptionSender, configuration: SenderConfiguration,
    clock: any OutboxClock = SystemClock(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    credentialsPauseSeconds: TimeInterval = 300, maximumConcurrentSends: Int? = nil,
    sendLeaseSeconds: TimeInterval? = nil,
    consentCheck: (any ConsentCheck)?, consentCheckAge: TimeInterval = 60,
    answerSender: (any ReviewRefundSender)? = nil, requestLogs: RequestLogBook = RequestLogBook(),
    apps: Set<AppKey>? = nil, events: @escaping @Sendable (SenderEvent) -> Void = { _ in }
  ) {
    self.apps = apps
    self.answerSender = answerSender
    self.requestLogs = requestLogs
    self.consentCheck = consentCheck
    self.consentCheckAge = consentCheckAge
    self.store = store
    self.sender = sender
    self.clock = clock
    let production = configuration.productionRequestsPerSecond
    let sandbox = configuration.sandboxRequestsPerSecond
    // Google Play's Developer API takes far more than Apple's production rate; the production
    // rate keeps one bad policy from flooding it.
    self.rates = { key in
      key.hasSuffix("|Production") || key.hasSuffix("|\(GooglePlayStore.environment)")
        ? production : sandbox
    }
    self.sendLease = sendLeaseSeconds ?? configuration.sendLeaseSeconds
    self.backoff = Backoff(
      initial: configuration.initialBackoffSeconds, maximum: configuration.maximumBackoffSeconds,
      random: random)
    self.credentialsPause = credentialsPauseSeconds
    self.maximumConcurrentSends = max(
      1, maximumConcurrentSends ?? configuration.maximumConcurrentSends)
    self.events = events
  }

  /// Puts a send left unfinished by a sender that stopped back in line (it may have reached
  /// Apple, so it may go out twice, with the same body), recording the interrupted attempt; a
  /// Google Play answer fails as uncertain instead, since Google takes only the first.
  @discardableResult
  func takeOverInterrupted(_ entry: inout OutboxEntry, now: Date) throws(StateError)
    -> OutboxAction
  {
    let since = entry.state.time
    let action = entry.recoverInterruptedSend(now: now)
    let attempt = DeliveryAttempt(
      entryId: entry.id, startedAt: since, finishedAt: nil, httpStatus: nil, errorCode: nil,
      errorMessage: "the process stopped before the answer was recorded",
      result: "interrupted")
    try store.save(&entry, attempt: attempt, now: now)
    return action
  }

  /// Sends everything due now, pacing per app, and returns when nothing more is due
  /// (later retries stay queued) or, between sends, once `isStopped`. `reckon send --once` is
  /// this. Entries of a paused or throttled app are postponed to its end rather than waited for.
  /// Held under an exclusive `lease`, every send found in flight was left by a sender that
  /// stopped, and is taken over at once; otherwise after the send lease lapses.
  public func drainDue(
    holding lease: (any SenderLease)? = nil, isStopped: @escaping @Sendable () -> Bool = { false }
  ) async throws -> Summary {
    var summary = Summary()
    try paused.load(from: store, now: clock.now())
    for (app, until) in try store.throttles(now: clock.now()) {
      try store.restoreHold(Self.limiterKey(app), until: until, now: clock.now())
    }
    let exclusive = lease?.isExclusive == true && lease?.isHeld == true
    // Due entries are taken up as sends finish, and looked for again every
    // `refetchInterval` while sends are in flight with room for more: one slow answer must not
    // hold up a reply that came due meanwhile.
    try await withThrowingTaskGroup(of: DrainStep.self) { group in
      var inFlight: Set<Int64> = []
      // Entries this drain left as they were (stopped, changed by another): not taken again.
      var leftAlone: Set<Int64> = []
      var waiting: [OutboxEntry] = []
      var ticking = false
      // A read that failed while sends were in flight: no new send starts, those in flight
      // finish and are recorded, and then the drain throws it.
      var failure: (any Error)?
      func fetch() throws {
        let now = clock.now()
        // Another instance may have paused an app meanwhile: a drain under load runs long.
        try paused.load(from: store, now: now)
        // Under an exclusive lease this sender's own sends in flight are `sending` too.
        waiting = try store.dueEntries(
          now: now, leaseLapsedBefore: exclusive ? .distantFuture : now - sendLease, limit: 512,
          apps: apps
        ).filter { !inFlight.contains($0.id) && !leftAlone.contains($0.id) }
        let interrupted = waiting.filter { if case .sending = $0.state { true } else { false } }
        if !interrupted.isEmpty {
          let googlePlay = interrupted.filter(\.isGooglePlay).count
          events(.recoveredInterrupted(count: interrupted.count, googlePlay: googlePlay))
        }
      }
      if !isStopped() { try fetch() }
      while true {
        while inFlight.count < maximumConcurrentSends, failure == nil, !isStopped(),
          !waiting.isEmpty
        {
          let entry = waiting.removeFirst()
          inFlight.insert(entry.id)
          group.addTask {
            .finished(entry.id, try await self.processLogged(entry, isStopped: isStopped))
          }
        }
        guard !inFlight.isEmpty else {
          group.cancelAll()  // a tick still sleeping
          break
        }
        if !ticking, inFlight.count < maximumConcurrentSends, failure == nil, !isStopped() {
          ticking = true
          // Wall time, not `clock`: a simulated clock's sleep returns at once, which would
          // make this a busy loop of reads while a send is in flight.
          group.addTask {
            try? await Task.sleep(for: Self.refetchInterval)
            return .tick
          }
        }
        guard let step = try await group.next() else { break }
        switch step {
        case .tick: ticking = false
        case .finished(let id, let action):
          inFlight.remove(id)
          summary.add(action)
          if action == .none { leftAlone.insert(id) }
        }
        if waiting.isEmpty, failure == nil, !isStopped() {
          do { try fetch() } catch { failure = error }
        }
      }
      if let failure { throw failure }
    }
    return summary
  }

  /// Drains, then sleeps until the next entry is due (or `pollInterval`), until `isStopped`.
  /// Over a state that tells of changes (`OutboxChangeNotifier`), a change any instance makes
  /// drains at once, and the poll, the fallback, comes every `listeningPollInterval` instead;
  /// `isStopped` is still seen within `pollInterval`.
  /// A state database that refuses a read or write (full disk, read-only file) is reported and
  /// tried again every `pollInterval`: sending resumes by itself once the database recovers.
  /// The problem is reported when it starts, when its reason changes and every
  /// `databaseProblemReminder` while it lasts, not at every try (four a second in `serve`, on a
  /// disk that may be full), and its end is reported too.
  public func run(
    pollInterval: TimeInterval = 5, listeningPollInterval: TimeInterval = 2,
    holding lease: (any SenderLease)? = nil, isStopped: @escaping @Sendable () -> Bool
  ) async throws {
    // The database problem under way: when it started, and its last report.
    var problem: (since: Date, reason: String, reportedAt: Date)? = nil
    let wake = WakeSignal()
    let listener = (store as? any OutboxChangeNotifier)?.listenForOutboxChanges { wake.signal() }
    defer { listener?.stop() }
    var next = Date.distantPast
    var drained = Date.distantPast
    var drainNow = true
    while !isStopped() {
      if drainNow {
        do {
          _ = try await drainDue(holding: lease, isStopped: isStopped)
          next = try store.nextWake(apps: apps) ?? .distantFuture
          if let ended = problem {
            events(.databaseRecovered(after: clock.now().timeIntervalSince(ended.since)))
            problem = nil
          }
        } catch let error as StateError {
          let now = clock.now()
          let reason = error.description
          if let ongoing = problem, ongoing.reason == reason,
            now.timeIntervalSince(ongoing.reportedAt) < Self.databaseProblemReminder
          {
            // Reported already, and recently.
          } else {
            events(.databaseProblem(reason: reason))
            problem = (problem?.since ?? now, reason, now)
          }
          next = .distantFuture
        }
        drained = clock.now()
      }
      let now = clock.now()
      let poll =
        listener?.isListening == true && problem == nil
        ? max(pollInterval, listeningPollInterval) : pollInterval
      let drainAt = max(min(next, drained.addingTimeInterval(poll)), now.addingTimeInterval(0.01))
      let signalled = try await wake.sleep(
        until: min(drainAt, now.addingTimeInterval(max(pollInterval, 0.01))), clock: clock)
      drainNow = signalled || clock.now() >= drainAt
    }
  }

  /// How long an app is paused after a 401 or 403. A Sandbox reply has five minutes in all, so
  /// its app is paused for a minute at most: the full pause would expire every reply queued.
  func credentialsPause(for app: AppKey) -> TimeInterval {
    app.environment == AppStoreEnvironment.sandbox.rawValue
      ? min(credentialsPause, Self.longestSandboxCredentialsPause) : credentialsPause
  }

  /// How often a drain looks for newly due entries while its sends are in flight.
  static let refetchInterval: Duration = .milliseconds(250)

  /// What finished in a drain: a send, or the wait before looking for due entries again.
  private enum DrainStep: Sendable {
    case finished(Int64, OutboxAction)
    case tick
  }

  /// How often a lasting state database problem is reported again.
  static let databaseProblemReminder: TimeInterval = 300

  /// The longest pause of a Sandbox app after a 401 or 403.
  static let longestSandboxCredentialsPause: TimeInterval = 60

  /// Processes `entry` with its request's log context current: the one the request arrived
  /// with while it is kept, else one naming what the entry knows.
  private func processLogged(_ entry: OutboxEntry, isStopped: @escaping @Sendable () -> Bool)
    async throws -> OutboxAction
  {
    let context =
      requestLogs.context(for: entry.requestId)
      ?? {
        let context = RequestLogContext()
        context.note(
          notificationUUID: nil, transactionId: entry.transactionId, app: entry.app.bundleId)
        context.note(requestId: entry.requestId)
        return context
      }()
    return try await RequestLogContext.$current.withValue(context) {
      try await process(entry, isStopped: isStopped)
    }
  }

  static func limiterKey(_ app: AppKey) -> String {
    "\(app.bundleId)|\(app.environment)"
  }
}

extension OutboxSender.Summary {
  mutating func add(_ action: OutboxAction) {
    switch action {
    case .recordSent: sent += 1
    case .retry, .throttleApp, .pauseApp: retrying += 1
    case .fail: failed += 1
    case .expire: expired += 1
    case .none, .wait, .send, .sendAnswer: break
    }
  }
}
