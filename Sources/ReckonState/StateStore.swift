import Foundation

/// The notifications a service received: each recorded once, whichever copy came first, with
/// the retries of those a fact source left undecided and the store's outcomes attached later.
public protocol NotificationLog: Sendable {
  /// Records `record` once (a copy of one recorded before says so); the request it opens.
  func recordNotification(_ record: NotificationRecord) throws(StateError) -> RecordResult
  /// Whether a notification with this UUID was recorded.
  func hasNotification(uuid: String) throws(StateError) -> Bool
  /// The raw notification a request was opened by.
  func recordedNotification(requestId: Int64) throws(StateError) -> RecordedNotification?
  /// Requests received before `before` and still undecided, whose retry is due at `now`.
  func undecidedRequests(before: Date, now: Date, limit: Int) throws(StateError)
    -> [UndecidedRequest]
  /// Waits the next retry of an undecided request until `until`, saying why.
  func postponeRetry(requestId: Int64, until: Date, reason: String) throws(StateError)
  /// Makes every postponed retry due now (a reload, a restart).
  func makeRetriesDue() throws(StateError)
  /// Undecided requests whose deadline passed by `now` and that were not reported yet.
  func lapsedRequests(now: Date) throws(StateError) -> [LapsedRequest]
  /// Marks a lapsed request as reported.
  func markLapsed(requestId: Int64, at now: Date) throws(StateError)
  /// Attaches a store outcome (refunded, declined, reversed) to the request it answers;
  /// returns that request's id, nil when it answers none recorded here.
  @discardableResult
  func attachOutcome(
    _ type: OutcomeType, notificationUUID: String, transactionId: String, app: AppKey?,
    originalTransactionId: String?, appAccountToken: String?, occurredAt: Date
  ) throws(StateError) -> Int64?
  /// The outcomes attached to a request.
  func outcomes(requestId: Int64) throws(StateError) -> [OutcomeType]
  /// Records how much of a transaction a revocation took back.
  func recordRevocation(notificationUUID: String, type: String?, percentage: Int?)
    throws(StateError)
}

/// The decisions made on requests, each request decided once, with the reply it enqueues.
public protocol DecisionLog: Sendable {
  /// Records a decision on a request and enqueues its reply, in one step; a request decided
  /// already keeps its first decision. With `sentAt`, the reply was delivered then: a past
  /// decision written as history (a generated one, one moved from another state).
  func recordDecision(
    _ decision: DecisionRecord, requestId: Int64, enqueue: OutboxEnqueue?, sentAt: Date?
  ) throws(StateError) -> DecisionReceipt
  /// A decision by its id.
  func decision(id: Int64) throws(StateError) -> DecisionRecord?
  /// Whether a request has a decision.
  func hasDecision(requestId: Int64) throws(StateError) -> Bool
  /// How many decisions a request has.
  func decisionCount(requestId: Int64) throws(StateError) -> Int
  /// How many requests for a transaction came before `date`.
  func requestCount(transactionId: String, app: AppKey?, before date: Date)
    throws(StateError) -> Int
  /// How many refunds a customer had before `date`.
  func refundCount(customer: CustomerKey, app: AppKey?, before date: Date)
    throws(StateError) -> Int
}

/// The replies waiting to go out, each entry moved through its states by the sender.
public protocol OutboxQueue: Sendable {
  /// An entry by its id.
  func entry(id: Int64) throws(StateError) -> OutboxEntry
  /// Entries in `states` (all when empty), unfinished first, at most `limit`.
  func entries(states: [String], limit: Int) throws(StateError) -> [OutboxEntry]
  /// How many entries are in `states` (all when empty).
  func entryCount(states: [String]) throws(StateError) -> Int
  /// Entries due to be sent at `now`, earliest deadline first: held and pending ones whose time
  /// came, and `sending` ones whose send began before `leaseLapsedBefore`, since the sender
  /// that began it stopped without recording an answer. A backend several instances send from
  /// claims the entries it returns for this caller, for as long as that lease
  /// (`now - leaseLapsedBefore`), so the others skip them meanwhile.
  func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int) throws(StateError)
    -> [OutboxEntry]
  /// The due entries of `apps` (all when nil), as `dueEntries(now:leaseLapsedBefore:limit:)`
  /// finds them, and the held and pending ones of any app whose deadline passed: a sender sends
  /// only for the apps it is configured for (one of several instances claims no other's), and
  /// expires what no sender can send any more. A backend that claims entries or applies the
  /// limit must filter in its query; the protocol's default filters what the unfiltered call
  /// returns, after its limit.
  func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int, apps: Set<AppKey>?)
    throws(StateError) -> [OutboxEntry]
  /// When the next entry falls due, if any waits.
  func nextWake() throws(StateError) -> Date?
  /// When the next entry `dueEntries(…, apps:)` returns falls due: an entry of another app at
  /// its deadline alone, so a sender does not wake for what it leaves to another. The default
  /// is `nextWake()`.
  func nextWake(apps: Set<AppKey>?) throws(StateError) -> Date?
  /// Saves an entry's new state, with the attempt that moved it; refused when another writer
  /// changed the entry since it was read.
  func save(_ entry: inout OutboxEntry, attempt: DeliveryAttempt?, now: Date)
    throws(StateError)
  /// The delivery attempts of an entry, oldest first.
  func attempts(entryId: Int64) throws(StateError) -> [DeliveryAttempt]
  /// Applies an operator's command to an entry and saves it, trying again when another writer
  /// changed it meanwhile.
  func modifyEntry(
    id: Int64, now: Date, note: String?,
    _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry
}

/// What holds an app's replies back, shared by every sender: a pause after a credentials
/// problem, a store's Retry-After.
public protocol AppHolds: Sendable {
  /// Pauses sending for `app` until `until`.
  func pause(_ app: AppKey, until: Date, reason: String) throws(StateError)
  /// Ends a pause.
  func resume(_ app: AppKey) throws(StateError)
  /// The pauses in force or past.
  func pauses() throws(StateError) -> [AppPause]
  /// Holds `app`'s replies until `until`, as the store asked.
  func throttle(_ app: AppKey, until: Date, now: Date) throws(StateError)
  /// The throttles still in force at `now`.
  func throttles(now: Date) throws(StateError) -> [AppKey: Date]
  /// Moves `app`'s pending entries to `until` at the earliest.
  func postponePending(_ app: AppKey, until: Date, now: Date) throws(StateError)
}

/// How fast replies may go out, shared by every sender of the state: each app's pace and the
/// holds a store's 429 put on it. Keys name an app (`bundle|environment`).
public protocol SendPacing: Sendable {
  /// Reserves the next send slot for `key` at or after `now`, `rate` a second; when it starts.
  func reserveSendSlot(_ key: String, rate: Double, now: Date) throws(StateError) -> Date
  /// Holds `key`'s sends after a 429 until `until`, or longer as a run of 429s builds up; when
  /// the hold ends.
  func holdSends(_ key: String, until: Date, now: Date) throws(StateError) -> Date
  /// Holds `key`'s sends until `until` as a hold recorded earlier, without counting a 429.
  func restoreHold(_ key: String, until: Date, now: Date) throws(StateError)
  /// When the hold on `key` ends, if it is held at `now`.
  func sendsHeldUntil(_ key: String, now: Date) throws(StateError) -> Date?
  /// The store accepted a send for `key`: the next 429 starts its hold from the shortest.
  func sendAccepted(_ key: String) throws(StateError)
  /// Whether every sender of the state records its sends' starts here (`admitSendStart`): a
  /// state several processes send from. One process's sender keeps its own window instead.
  var sharesSendStarts: Bool { get }
  /// Records a send of `key` beginning at `now` and returns nil when fewer than `rate` (at
  /// least one) of the state's senders began one in the second before; otherwise records
  /// nothing and returns when one may begin. A store may keep the window on a clock of its own
  /// that all its senders share, and then gives that time on the caller's clock.
  func admitSendStart(_ key: String, rate: Double, now: Date) throws(StateError) -> Date?
}

extension SendPacing {
  /// A state one process sends from: its sender's own window keeps the starts.
  public var sharesSendStarts: Bool { false }

  /// Admits every start: the sender's own window keeps them (`sharesSendStarts` is false).
  public func admitSendStart(_ key: String, rate: Double, now: Date) throws(StateError) -> Date? {
    nil
  }
}

/// The last policy that went live for each app, which a restart falls back on.
public protocol PolicyArchive: Sendable {
  /// Keeps `policy` as its app's last live policy, replacing the one kept before.
  func archiveLivePolicy(_ policy: ArchivedPolicy) throws(StateError)
  /// The last live policy kept for `app`, if any.
  func lastLivePolicy(app: AppKey) throws(StateError) -> ArchivedPolicy?
}

/// Who may decide a request, who may send, and who does the once-only work: claims on requests
/// being decided, the lease a sender holds while it runs, and the leader's lease.
public protocol WorkClaims: Sendable {
  /// Claims request `requestId` for deciding; false when another decider holds it now.
  func claimRequest(_ requestId: Int64) throws(StateError) -> Bool
  /// Gives up the claim on request `requestId`.
  func releaseRequest(_ requestId: Int64) throws(StateError)
  /// Takes the sender lease without waiting; throws when another sender holds it, or the
  /// lease cannot be taken.
  func takeSenderLease() throws(SenderLockError) -> any SenderLease
  /// Whether `lease` is held and is this state's.
  func isOwnLease(_ lease: any SenderLease) -> Bool
  /// A lease on the state's once-only work, led or not as its `refresh()` finds (a state that
  /// cannot be reached is not led).
  func takeLeaderLease() -> any LeaderLease
}

/// Keeping the state healthy and visible: pruning, gauges, write health.
public protocol StateMaintenance: Sendable {
  /// Removes what was finished before `cutoff` (with `dryRun`, counts it), stopping between
  /// batches when `stop` says so.
  func prune(before cutoff: Date, now: Date, dryRun: Bool, stop: () -> Bool)
    throws(StateError) -> PruneCounts
  /// The gauges `/metrics` and `/healthz` show.
  func gauges(now: Date) throws(StateError) -> StateGauges
  /// How many entries are in each state.
  func outboxDepth() throws(StateError) -> [String: Int]
  /// Why writes fail now, if they do.
  var writeProblem: StateWriteHealth.Problem? { get }
  /// Throws unless a write goes through now.
  func checkWritable() throws(StateError)
  /// Moves written data to where it lasts, when the backend keeps a log first; whether all of
  /// it was moved.
  @discardableResult
  func checkpoint(waitingForOthers: Bool) throws(StateError) -> Bool
  /// The schema version the store reads.
  func schemaVersion() throws(StateError) -> Int
}

/// The past requests dry-runs and reports read.
public protocol RequestHistory: Sendable {
  /// The CONSUMPTION_REQUESTs received in `since..<until`.
  func storedRequests(since: Date?, until: Date?) throws(StateError) -> [StoredRequest]
  /// The requests decided (or imported) in `since..<until`, with their outcomes.
  func decidedOutcomes(since: Date?, until: Date?) throws(StateError) -> [DecidedOutcome]
  /// The same requests as `decidedOutcomes`, in the same order, each handed to `body` as it
  /// is read, so a report over millions holds none of them for long.
  func forEachDecidedOutcome(
    since: Date?, until: Date?, _ body: (DecidedOutcome) -> Void
  ) throws(StateError)
  /// When the store refunded or declined each transaction.
  func storeVerdicts() throws(StateError) -> StoreVerdicts
  /// How many requests the store holds, and when the first and last came.
  func requestSpan(decided: Bool) throws(StateError) -> StoredRequestSpan
}

/// Everything stateful a Reckon service keeps, behind one value: any backend (SQLite for one
/// instance, PostgreSQL for several) that passes the conformance suite.
public protocol StateStore: NotificationLog, DecisionLog, OutboxQueue, AppHolds, SendPacing,
  PolicyArchive, WorkClaims, StateMaintenance, RequestHistory
{}

extension StateStore {
  /// Records a decision without a reply to enqueue.
  public func recordDecision(_ decision: DecisionRecord, requestId: Int64)
    throws(StateError) -> DecisionReceipt
  {
    try recordDecision(decision, requestId: requestId, enqueue: nil, sentAt: nil)
  }

  /// Records a decision and enqueues its reply to be sent.
  public func recordDecision(
    _ decision: DecisionRecord, requestId: Int64, enqueue: OutboxEnqueue?
  ) throws(StateError) -> DecisionReceipt {
    try recordDecision(decision, requestId: requestId, enqueue: enqueue, sentAt: nil)
  }

  /// Undecided requests due for a retry, at most 100.
  public func undecidedRequests(before: Date, now: Date) throws(StateError)
    -> [UndecidedRequest]
  {
    try undecidedRequests(before: before, now: now, limit: 100)
  }

  /// The default for a backend that does not filter in its query: the entries of `apps`, and
  /// those of any app past their deadline, among those the unfiltered call returns.
  public func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int, apps: Set<AppKey>?)
    throws(StateError) -> [OutboxEntry]
  {
    let due = try dueEntries(now: now, leaseLapsedBefore: leaseLapsedBefore, limit: limit)
    guard let apps else { return due }
    return due.filter { entry in
      if apps.contains(entry.app) { return true }
      if case .sending = entry.state { return false }
      return entry.deadline <= now
    }
  }

  /// The default: the next entry of any app.
  public func nextWake(apps: Set<AppKey>?) throws(StateError) -> Date? { try nextWake() }

  /// Entries due at `now`, leaving every `sending` one to the sender that began it.
  public func dueEntries(now: Date, limit: Int) throws(StateError) -> [OutboxEntry] {
    try dueEntries(now: now, leaseLapsedBefore: .distantPast, limit: limit)
  }

  /// Every entry, at most 1,000.
  public func entries(states: [String] = []) throws(StateError) -> [OutboxEntry] {
    try entries(states: states, limit: 1_000)
  }

  /// How many entries there are in all.
  public func entryCount() throws(StateError) -> Int { try entryCount(states: []) }

  /// Saves an entry's new state without an attempt.
  public func save(_ entry: inout OutboxEntry, now: Date) throws(StateError) {
    try save(&entry, attempt: nil, now: now)
  }

  /// Applies an operator's command without a note.
  public func modifyEntry(
    id: Int64, now: Date, _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    try modifyEntry(id: id, now: now, note: nil, command)
  }

  /// How many requests for a transaction came before `date`, in any app.
  public func requestCount(transactionId: String, before date: Date) throws(StateError)
    -> Int
  {
    try requestCount(transactionId: transactionId, app: nil, before: date)
  }

  /// Prunes for real, without a stop.
  public func prune(before cutoff: Date, now: Date) throws(StateError) -> PruneCounts {
    try prune(before: cutoff, now: now, dryRun: false, stop: { false })
  }

  /// Checkpoints, waiting for other readers.
  public func checkpoint() throws(StateError) -> Bool {
    try checkpoint(waitingForOthers: true)
  }
}

extension RequestHistory {
  /// Reads `decidedOutcomes` whole and hands them over one by one: a backend that can read
  /// row by row does better.
  public func forEachDecidedOutcome(
    since: Date?, until: Date?, _ body: (DecidedOutcome) -> Void
  ) throws(StateError) {
    for decided in try decidedOutcomes(since: since, until: until) { body(decided) }
  }
}
