import Foundation
import ReckonState
import ReckonSupport

/// A `StateStore` kept in memory, for tests and as a second backend of the conformance suite:
/// it shows what the protocol asks of a backend without SQL. One lock serialises every call, as
/// one SQLite connection does. Nothing outlives the value.
final class InMemoryStateStore: StateStore, @unchecked Sendable {
  private struct Request {
    var id: Int64
    var record: NotificationRecord
    var deadline: Date
    var asksForReply: Bool
    var repeatOf: Int64?
    var retryAt: Date?
    var retries = 0
    var retryReason: String?
    var lapsedAt: Date?
    /// A request of its own that may still be decided: not a repeat, not imported.
    var isOpenToDecide: Bool { asksForReply && repeatOf == nil && !record.imported }
  }

  private struct Outcome {
    var uuid: String
    var requestId: Int64?
    var type: OutcomeType
    var transactionId: String
    var appAccountToken: String?
    var originalTransactionId: String?
    var occurredAt: Date
    var revocationType: String?
    var revocationPercentage: Int?
  }

  /// The store's rules for the requests recorded.
  let rules: ReplyRules
  private let lock = NSLock()
  private var nextId: Int64 = 1
  private var requests: [Int64: Request] = [:]
  private var requestByUUID: [String: Int64] = [:]
  private var decisions: [Int64: (requestId: Int64, record: DecisionRecord)] = [:]
  private var entries: [Int64: OutboxEntry] = [:]
  private var attemptsByEntry: [Int64: [DeliveryAttempt]] = [:]
  private var outcomesList: [Outcome] = []
  private var pausesByApp: [AppKey: AppPause] = [:]
  private var throttlesByApp: [AppKey: Date] = [:]
  private var livePolicies: [AppKey: ArchivedPolicy] = [:]

  /// An empty store that records requests by `rules`.
  init(rules: ReplyRules) {
    self.rules = rules
  }

  private func locked<T>(_ body: () throws(StateError) -> T) throws(StateError)
    -> T
  {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Whether `record` is of `app`, or any app when none is named.
  private static func isOf(_ app: AppKey?, _ record: NotificationRecord) -> Bool {
    guard let app else { return true }
    return record.bundleId == app.bundleId && record.environment == app.environment
  }

  /// Whether `date` is in `since..<until`, either end open when nil.
  private static func isWithin(_ since: Date?, _ until: Date?, _ date: Date) -> Bool {
    (since.map { date >= $0 } ?? true) && (until.map { date < $0 } ?? true)
  }

  private func makeId() -> Int64 {
    defer { nextId += 1 }
    return nextId
  }

  // MARK: NotificationLog

  func recordNotification(_ record: NotificationRecord) throws(StateError) -> RecordResult {
    try locked { () throws(StateError) in
      if let id = requestByUUID[record.notificationUUID] {
        guard let existing = requests[id], existing.record.imported, !record.imported,
          rules.asksForReply(record)
        else { return .duplicate(requestId: id) }
        let original = openRequest(repeatedBy: record)
        requests[id]?.record = record
        requests[id]?.deadline = rules.deadline(of: record)
        requests[id]?.repeatOf = original
        return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
      }
      let original = openRequest(repeatedBy: record)
      let id = makeId()
      requests[id] = Request(
        id: id, record: record, deadline: rules.deadline(of: record),
        asksForReply: rules.asksForReply(record), repeatOf: original)
      requestByUUID[record.notificationUUID] = id
      return original.map { .repeated(requestId: id, of: $0) } ?? .recorded(requestId: id)
    }
  }

  /// The latest open request of the record's app and transaction, received by then and before
  /// its deadline, that Apple gave no verdict on between its first send and this one.
  private func openRequest(repeatedBy record: NotificationRecord) -> Int64? {
    guard rules.asksForReply(record), let transactionId = record.transactionId else { return nil }
    let open = requests.values.filter {
      $0.isOpenToDecide && $0.record.transactionId == transactionId
        && $0.record.bundleId == record.bundleId && $0.record.environment == record.environment
        && $0.record.receivedAt <= record.receivedAt && $0.deadline > record.receivedAt
    }.max { $0.record.receivedAt < $1.record.receivedAt }
    guard let open else { return nil }
    let opened = rules.requestOpened(
      deadline: open.deadline, environment: record.environment)
    let asked = record.askedAt
    let closed = outcomesList.contains {
      $0.requestId == open.id && $0.type.isVerdict
        && $0.occurredAt >= opened && $0.occurredAt <= asked
    }
    return closed ? nil : open.id
  }

  func hasNotification(uuid: String) throws(StateError) -> Bool {
    try locked { () throws(StateError) in requestByUUID[uuid] != nil }
  }

  func recordedNotification(requestId: Int64) throws(StateError) -> RecordedNotification? {
    try locked { () throws(StateError) in
      requests[requestId].map {
        RecordedNotification(
          receivedAt: $0.record.receivedAt, rawNotification: $0.record.rawNotification)
      }
    }
  }

  private func isDecided(_ id: Int64) -> Bool { decisions.values.contains { $0.requestId == id } }

  func undecidedRequests(before: Date, now: Date, limit: Int) throws(StateError)
    -> [UndecidedRequest]
  {
    try locked { () throws(StateError) in
      requests.values.filter {
        $0.isOpenToDecide && $0.record.receivedAt < before && $0.deadline > now
          && ($0.retryAt.map { $0 <= now } ?? true) && !isDecided($0.id)
      }
      .sorted { ($0.retryAt ?? $0.record.receivedAt) < ($1.retryAt ?? $1.record.receivedAt) }
      .prefix(limit)
      .map {
        UndecidedRequest(
          requestId: $0.id, receivedAt: $0.record.receivedAt,
          rawNotification: $0.record.rawNotification, retries: $0.retries,
          environment: $0.record.environment)
      }
    }
  }

  func postponeRetry(requestId: Int64, until: Date, reason: String) throws(StateError) {
    try locked { () throws(StateError) in
      requests[requestId]?.retryAt = until
      requests[requestId]?.retries += 1
      requests[requestId]?.retryReason = reason
    }
  }

  func makeRetriesDue() throws(StateError) {
    try locked { () throws(StateError) in
      for id in requests.keys { requests[id]?.retryAt = nil }
    }
  }

  func lapsedRequests(now: Date) throws(StateError) -> [LapsedRequest] {
    try locked { () throws(StateError) in
      requests.values.filter {
        $0.isOpenToDecide && $0.deadline <= now && $0.lapsedAt == nil && !isDecided($0.id)
      }
      .sorted { $0.deadline < $1.deadline }
      .map {
        LapsedRequest(
          requestId: $0.id, transactionId: $0.record.transactionId ?? "unknown",
          bundleId: $0.record.bundleId, environment: $0.record.environment,
          deadline: $0.deadline, retries: $0.retries, lastReason: $0.retryReason)
      }
    }
  }

  func markLapsed(requestId: Int64, at now: Date) throws(StateError) {
    try locked { () throws(StateError) in requests[requestId]?.lapsedAt = now }
  }

  func attachOutcome(
    _ type: OutcomeType, notificationUUID: String, transactionId: String, app: AppKey?,
    originalTransactionId: String?, appAccountToken: String?, occurredAt: Date
  ) throws(StateError) -> Int64? {
    try locked { () throws(StateError) in
      let request = requests.values.filter {
        $0.asksForReply && $0.repeatOf == nil && $0.record.transactionId == transactionId
          && Self.isOf(app, $0.record)
      }.max { $0.record.receivedAt < $1.record.receivedAt }
      guard !outcomesList.contains(where: { $0.uuid == notificationUUID }) else {
        return request?.id
      }
      outcomesList.append(
        Outcome(
          uuid: notificationUUID, requestId: request?.id, type: type,
          transactionId: transactionId,
          appAccountToken: (appAccountToken ?? request?.record.appAccountToken).map(
            UUIDText.accountKey),
          originalTransactionId: originalTransactionId, occurredAt: occurredAt))
      return request?.id
    }
  }

  func outcomes(requestId: Int64) throws(StateError) -> [OutcomeType] {
    try locked { () throws(StateError) in
      outcomesList.filter { $0.requestId == requestId }.map(\.type)
    }
  }

  func recordRevocation(notificationUUID: String, type: String?, percentage: Int?)
    throws(StateError)
  {
    try locked { () throws(StateError) in
      for index in outcomesList.indices where outcomesList[index].uuid == notificationUUID {
        outcomesList[index].revocationType = type
        outcomesList[index].revocationPercentage = percentage
      }
    }
  }

  // MARK: DecisionLog

  func recordDecision(
    _ decision: DecisionRecord, requestId: Int64, enqueue: OutboxEnqueue?, sentAt: Date?
  ) throws(StateError) -> DecisionReceipt {
    try locked { () throws(StateError) in
      if let first = decisions.filter({ $0.value.requestId == requestId }).min(by: {
        $0.key < $1.key
      }) {
        let entry = entries.values.first { $0.decisionId == first.key }
        return DecisionReceipt(decisionId: first.key, entryId: entry?.id, alreadyDecided: true)
      }
      let decisionId = makeId()
      decisions[decisionId] = (requestId, decision)
      guard let enqueue else { return DecisionReceipt(decisionId: decisionId, entryId: nil) }
      let entryId = makeId()
      let state: OutboxState =
        sentAt.map { .sent(at: $0) } ?? enqueue.holdUntil.map { .held(releaseAt: $0) }
        ?? .pending(notBefore: decision.decidedAt)
      entries[entryId] = OutboxEntry(
        id: entryId, decisionId: decisionId, requestId: requestId, app: enqueue.app,
        transactionId: enqueue.transactionId, context: enqueue.body.context,
        body: enqueue.body.bytes,
        deadline: enqueue.deadline, state: state, lastStatus: sentAt == nil ? nil : 202,
        createdAt: decision.decidedAt)
      return DecisionReceipt(decisionId: decisionId, entryId: entryId)
    }
  }

  func decision(id: Int64) throws(StateError) -> DecisionRecord? {
    try locked { () throws(StateError) in decisions[id]?.record }
  }

  func hasDecision(requestId: Int64) throws(StateError) -> Bool {
    try locked { () throws(StateError) in isDecided(requestId) }
  }

  func decisionCount(requestId: Int64) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      decisions.values.filter { $0.requestId == requestId }.count
    }
  }

  func requestCount(transactionId: String, app: AppKey?, before date: Date)
    throws(StateError) -> Int
  {
    try locked { () throws(StateError) in
      requests.values.filter {
        $0.asksForReply && $0.repeatOf == nil && $0.record.transactionId == transactionId
          && $0.record.receivedAt < date
          && Self.isOf(app, $0.record)
      }.count
    }
  }

  func refundCount(customer: CustomerKey, app: AppKey?, before date: Date)
    throws(StateError) -> Int
  {
    try locked { () throws(StateError) in
      outcomesList.filter { outcome in
        guard OutcomeType.refunds.contains(outcome.type), outcome.occurredAt < date else {
          return false
        }
        switch customer {
        case .appAccountToken(let token):
          return outcome.appAccountToken == UUIDText.accountKey(token)
        case .originalTransactionId(let id): return outcome.originalTransactionId == id
        }
      }.count
    }
  }

  // MARK: OutboxQueue

  func entry(id: Int64) throws(StateError) -> OutboxEntry {
    try locked { () throws(StateError) in
      guard let entry = entries[id] else { throw .notFound(what: "outbox entry", id: id) }
      return entry
    }
  }

  private static let unfinished: Set<String> = ["held", "pending", "sending", "failed"]

  func entries(states: [String], limit: Int) throws(StateError) -> [OutboxEntry] {
    try locked { () throws(StateError) in
      let chosen = entries.values.filter { states.isEmpty || states.contains($0.state.name) }
      let open = chosen.filter { Self.unfinished.contains($0.state.name) }
        .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
      let finished = chosen.filter { !Self.unfinished.contains($0.state.name) }
        .sorted { ($0.deadline, $0.id) > ($1.deadline, $1.id) }
      return Array((open + finished).prefix(limit))
    }
  }

  func entryCount(states: [String]) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      entries.values.filter { states.isEmpty || states.contains($0.state.name) }.count
    }
  }

  private static func isWaiting(_ entry: OutboxEntry) -> Bool {
    switch entry.state {
    case .held, .pending: true
    default: false
    }
  }

  func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int) throws(StateError)
    -> [OutboxEntry]
  {
    try dueEntries(now: now, leaseLapsedBefore: leaseLapsedBefore, limit: limit, apps: nil)
  }

  func dueEntries(now: Date, leaseLapsedBefore: Date, limit: Int, apps: Set<AppKey>?)
    throws(StateError) -> [OutboxEntry]
  {
    try locked { () throws(StateError) in
      entries.values.filter {
        if case .sending(let since) = $0.state {
          return since < leaseLapsedBefore && apps?.contains($0.app) != false
        }
        if let apps, !apps.contains($0.app) { return Self.isWaiting($0) && $0.deadline <= now }
        return Self.isWaiting($0) && ($0.state.time <= now || $0.deadline <= now)
      }
      .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
      .prefix(limit).map { $0 }
    }
  }

  func nextWake() throws(StateError) -> Date? { try nextWake(apps: nil) }

  func nextWake(apps: Set<AppKey>?) throws(StateError) -> Date? {
    try locked { () throws(StateError) in
      entries.values.filter(Self.isWaiting).map {
        apps?.contains($0.app) == false ? $0.deadline : min($0.state.time, $0.deadline)
      }.min()
    }
  }

  func save(_ entry: inout OutboxEntry, attempt: DeliveryAttempt?, now: Date)
    throws(StateError)
  {
    let written = entry
    try locked { () throws(StateError) in
      guard let stored = entries[written.id] else {
        throw .notFound(what: "outbox entry", id: written.id)
      }
      guard stored.revision == written.revision else {
        throw .changedConcurrently(entry: written.id)
      }
      var saved = written
      saved.revision += 1
      entries[written.id] = saved
      if let attempt { attemptsByEntry[written.id, default: []].append(attempt) }
    }
    entry.revision += 1
  }

  func attempts(entryId: Int64) throws(StateError) -> [DeliveryAttempt] {
    try locked { () throws(StateError) in attemptsByEntry[entryId] ?? [] }
  }

  func modifyEntry(
    id: Int64, now: Date, note: String?,
    _ command: (inout OutboxEntry) throws(OutboxCommandRefused) -> Void
  ) throws -> OutboxEntry {
    while true {
      var entry = try entry(id: id)
      try command(&entry)
      do {
        try save(&entry, attempt: nil, now: now)
        return entry
      } catch {
        guard case .changedConcurrently = error else { throw error }
      }
    }
  }

  // MARK: AppHolds

  func pause(_ app: AppKey, until: Date, reason: String) throws(StateError) {
    try locked { () throws(StateError) in
      pausesByApp[app] = AppPause(app: app, until: until, reason: reason)
    }
  }

  func resume(_ app: AppKey) throws(StateError) {
    try locked { () throws(StateError) in pausesByApp[app] = nil }
  }

  func pauses() throws(StateError) -> [AppPause] {
    try locked { () throws(StateError) in
      pausesByApp.values.sorted { $0.app.description < $1.app.description }
    }
  }

  func throttle(_ app: AppKey, until: Date, now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      throttlesByApp[app] = max(until, throttlesByApp[app] ?? until)
    }
  }

  func throttles(now: Date) throws(StateError) -> [AppKey: Date] {
    try locked { () throws(StateError) in throttlesByApp.filter { $0.value > now } }
  }

  func postponePending(_ app: AppKey, until: Date, now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      for (id, entry) in entries where entry.app == app {
        if case .pending(let notBefore) = entry.state, notBefore < until {
          entries[id]?.state = .pending(notBefore: until)
          entries[id]?.revision += 1
        }
      }
    }
  }

  // MARK: PolicyArchive

  func archiveLivePolicy(_ policy: ArchivedPolicy) throws(StateError) {
    try locked { () throws(StateError) in livePolicies[policy.app] = policy }
  }

  func lastLivePolicy(app: AppKey) throws(StateError) -> ArchivedPolicy? {
    try locked { () throws(StateError) in livePolicies[app] }
  }

  // MARK: StateMaintenance

  func prune(before cutoff: Date, now: Date, dryRun: Bool, stop: () -> Bool)
    throws(StateError) -> PruneCounts
  {
    let latest = now.addingTimeInterval(-7 * 86_400)
    guard cutoff <= latest else { throw .retentionTooShort(cutoff: cutoff, latest: latest) }
    return try locked { () throws(StateError) in
      // As the SQLite backend: a request stays, with its repeats, while its reply still waits
      // or anything about it came after the cutoff.
      let waiting: Set<String> = ["held", "pending", "sending"]
      let originals = Set(
        requests.values.filter { request in
          request.record.receivedAt < cutoff && request.repeatOf == nil
            && !requests.values.contains {
              $0.repeatOf == request.id && $0.record.receivedAt >= cutoff
            }
            && !outcomesList.contains { $0.requestId == request.id && $0.occurredAt >= cutoff }
            && !entries.values.contains {
              $0.requestId == request.id && waiting.contains($0.state.name)
            }
        }.map(\.id))
      let old = originals.union(
        requests.values.filter { $0.repeatOf.map(originals.contains) ?? false }.map(\.id))
      let oldDecisions = decisions.filter { old.contains($0.value.requestId) }.map(\.key)
      let oldEntries = entries.values.filter { old.contains($0.requestId) }.map(\.id)
      let isOldOutcome = { (outcome: Outcome) in
        outcome.requestId.map(old.contains) ?? (outcome.occurredAt < cutoff)
      }
      var counts = PruneCounts()
      counts.notifications = old.count
      counts.decisions = oldDecisions.count
      counts.entries = oldEntries.count
      counts.attempts = oldEntries.reduce(0) { $0 + (attemptsByEntry[$1]?.count ?? 0) }
      counts.outcomes = outcomesList.filter(isOldOutcome).count
      guard !dryRun else { return counts }
      for id in old {
        if let uuid = requests[id]?.record.notificationUUID { requestByUUID[uuid] = nil }
        requests[id] = nil
      }
      for id in oldDecisions { decisions[id] = nil }
      for id in oldEntries {
        entries[id] = nil
        attemptsByEntry[id] = nil
      }
      outcomesList.removeAll(where: isOldOutcome)
      return counts
    }
  }

  func gauges(now: Date) throws(StateError) -> StateGauges {
    try locked { () throws(StateError) in
      var gauges = StateGauges(
        outboxDepth: depth(),
        overdue: entries.values.filter {
          ["held", "pending", "sending"].contains($0.state.name) && $0.deadline <= now
        }.count,
        undecided: requests.values.filter {
          $0.isOpenToDecide && $0.deadline > now && !isDecided($0.id)
        }.count,
        oldestDueSince: entries.values.filter { ["held", "pending"].contains($0.state.name) }
          .map { min($0.state.time, $0.deadline) }.filter { $0 <= now }.min())
      gauges.paused = pausesByApp.values.filter { $0.until > now }.map(\.app)
        .sorted { ($0.bundleId, $0.environment) < ($1.bundleId, $1.environment) }
      return gauges
    }
  }

  private func depth() -> [String: Int] {
    entries.values.reduce(into: [:]) { $0[$1.state.name, default: 0] += 1 }
  }

  func outboxDepth() throws(StateError) -> [String: Int] {
    try locked { () throws(StateError) in depth() }
  }

  var writeProblem: StateWriteHealth.Problem? { nil }

  func checkWritable() throws(StateError) {}

  func checkpoint(waitingForOthers: Bool) throws(StateError) -> Bool { true }

  func schemaVersion() throws(StateError) -> Int { 1 }

  // MARK: RequestHistory

  func storedRequests(since: Date?, until: Date?) throws(StateError) -> [StoredRequest] {
    try locked { () throws(StateError) in
      requests.values.filter {
        $0.asksForReply && $0.repeatOf == nil
          && Self.isWithin(since, until, $0.record.receivedAt)
      }
      .sorted { ($0.record.receivedAt, $0.id) < ($1.record.receivedAt, $1.id) }
      .map { request in
        let latest = decisions.filter { $0.value.requestId == request.id }.max { $0.key < $1.key }
        return StoredRequest(
          id: request.id, rawNotification: request.record.rawNotification,
          receivedAt: request.record.receivedAt, factsJSON: latest?.value.record.factsJSON,
          notificationUUID: request.record.notificationUUID)
      }
    }
  }

  func decidedOutcomes(since: Date?, until: Date?) throws(StateError) -> [DecidedOutcome] {
    try locked { () throws(StateError) in
      requests.values.filter { request in
        request.asksForReply && request.repeatOf == nil && isDecided(request.id)
          && Self.isWithin(since, until, request.record.receivedAt)
      }
      .sorted { ($0.record.receivedAt, $0.id) < ($1.record.receivedAt, $1.id) }
      .compactMap { request in
        guard
          let latest = decisions.filter({ $0.value.requestId == request.id }).max(by: {
            $0.key < $1.key
          })
        else { return nil }
        let entry = entries.values.first { $0.decisionId == latest.key }
        let attached = outcomesList.filter { $0.requestId == request.id }
          .sorted { $0.occurredAt < $1.occurredAt }
        return DecidedOutcome(
          receivedAt: request.record.receivedAt, action: latest.value.record.action,
          rule: latest.value.record.rule, policyName: latest.value.record.policyName,
          body: latest.value.record.body,
          rawNotification: request.record.summary == nil ? request.record.rawNotification : Data(),
          outboxState: entry?.state.name,
          sentBody: entry.flatMap { if case .sent = $0.state { $0.body } else { nil } },
          outcomes: attached.map(\.type),
          revocationType: attached.first { $0.type == .refund }?.revocationType,
          revocationPercentage: attached.first { $0.type == .refund }?.revocationPercentage,
          summary: request.record.summary, environment: request.record.environment,
          policyVersion: latest.value.record.policyVersion,
          policySHA256: latest.value.record.policySHA256)
      }
    }
  }

  func storeVerdicts() throws(StateError) -> StoreVerdicts {
    try locked { () throws(StateError) in
      var verdicts = StoreVerdicts()
      for outcome in outcomesList where outcome.type.isVerdict {
        let environment = outcome.requestId.flatMap { requests[$0]?.record.environment }
        verdicts.add(
          transactionId: outcome.transactionId, environment: environment, at: outcome.occurredAt,
          outcome: outcome.type)
      }
      return verdicts
    }
  }

  func requestSpan(decided: Bool) throws(StateError) -> StoredRequestSpan {
    try locked { () throws(StateError) in
      let chosen = requests.values.filter {
        $0.asksForReply && $0.repeatOf == nil && (!decided || isDecided($0.id))
      }.map(\.record.receivedAt)
      return StoredRequestSpan(count: chosen.count, first: chosen.min(), last: chosen.max())
    }
  }

  // MARK: Pacing and claims

  private let pacing = RateLimiter()
  private let claims = RequestClaims()
  private let senderLease = InMemorySenderLease.Slot()

  func reserveSendSlot(_ key: String, rate: Double, now: Date) -> Date {
    pacing.reserve(key, rate: rate, now: now)
  }

  func holdSends(_ key: String, until: Date, now: Date) -> Date {
    pacing.hold(key, until: until, now: now)
  }

  func restoreHold(_ key: String, until: Date, now: Date) {
    pacing.restore(key, until: until, now: now)
  }

  func sendsHeldUntil(_ key: String, now: Date) -> Date? { pacing.heldUntil(key, now: now) }

  func sendAccepted(_ key: String) { pacing.accepted(key) }

  func claimRequest(_ requestId: Int64) -> Bool { claims.claim(requestId) }

  func releaseRequest(_ requestId: Int64) { claims.release(requestId) }

  func takeSenderLease() throws(SenderLockError) -> any SenderLease {
    guard let lease = InMemorySenderLease(slot: senderLease) else {
      throw .heldByAnotherSender(path: "the in-memory state")
    }
    return lease
  }

  func isOwnLease(_ lease: any SenderLease) -> Bool {
    (lease as? InMemorySenderLease)?.slot === senderLease && lease.isHeld
  }

  func takeLeaderLease() -> any LeaderLease { SoleLeaderLease() }
}

/// The in-memory store's sender lease: one holder at a time per store.
final class InMemorySenderLease: SenderLease, @unchecked Sendable {
  /// Whether a store's lease is taken.
  final class Slot: @unchecked Sendable {
    let lock = NSLock()
    var taken = false
  }

  let slot: Slot
  private var held = true

  init?(slot: Slot) {
    guard
      slot.lock.withLock({ () -> Bool in
        defer { slot.taken = true }
        return !slot.taken
      })
    else { return nil }
    self.slot = slot
  }

  var name: String { "the in-memory state's sender lease" }
  var isExclusive: Bool { true }
  var isHeld: Bool { slot.lock.withLock { held } }

  func release() {
    slot.lock.withLock {
      if held { slot.taken = false }
      held = false
    }
  }

  deinit { release() }
}
