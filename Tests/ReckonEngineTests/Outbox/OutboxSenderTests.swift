import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Every outbox rule against the local App Store stand-in, in simulated time.
@Suite struct OutboxSenderTests {
  let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down))

  struct Harness {
    let standIn: AppStoreStandIn
    let store: SQLiteStateStore
    let clock: SimulatedClock
    let events = SenderEventLog()
    let sender: OutboxSender

    init(
      start: Date, url: URL? = nil, standIn: AppStoreStandIn, baseURL: URL,
      sandboxPerSecond: Double = 5
    ) throws {
      self.standIn = standIn
      store = try OutboxFixture.temporaryStore()
      clock = SimulatedClock(start: start)
      sender = OutboxSender(
        store: store, sender: try TestKey.client(url ?? baseURL),
        configuration: try SenderSettings.fast(sandboxPerSecond: sandboxPerSecond), clock: clock,
        random: { 0 },
        maximumConcurrentSends: 1, consentCheck: nil, events: events.append)
    }

    func state(_ id: Int64) throws -> OutboxState { try store.entry(id: id).state }
  }

  func harness(sandboxPerSecond: Double = 5, url: URL? = nil) throws -> Harness {
    let (standIn, baseURL) = try TestKey.standIn()
    return try Harness(
      start: start, url: url, standIn: standIn, baseURL: baseURL, sandboxPerSecond: sandboxPerSecond
    )
  }

  /// A sender configured for some apps leaves another app's entries to the sender configured
  /// for it, which sends with that app's credentials and pace.
  @Test func aSenderTakesOnlyTheEntriesOfItsApps() async throws {
    let (standIn, baseURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let store = try OutboxFixture.temporaryStore()
    let ours = try OutboxFixture.enqueue(in: store, at: start, transaction: "2001")
    let theirs = try OutboxFixture.enqueue(
      in: store, at: start, transaction: "2002", bundleId: "com.example.other")
    let clock = SimulatedClock(start: start)
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(baseURL),
      configuration: try SenderSettings.fast(), clock: clock,
      random: { 0 }, maximumConcurrentSends: 1, consentCheck: nil,
      apps: [AppStoreApp(bundleId: TestKey.bundleId, environment: .production).key])
    let summary = try await sender.drainDue()
    #expect(summary.sent == 1)
    #expect(try store.entry(id: ours).state.name == "sent")
    #expect(try store.entry(id: theirs).state.name == "pending")
    #expect(standIn.requests.map(\.path) == ["/inApps/v2/transactions/consumption/2001"])
    // Past its deadline no sender can send it: this one expires it, and wakes for nothing
    // before then.
    let deadline = try store.entry(id: theirs).deadline
    #expect(try store.nextWake(apps: sender.apps) == deadline)
    clock.advance(to: deadline.addingTimeInterval(1))
    _ = try await sender.drainDue()
    #expect(try store.entry(id: theirs).state.name == "expired")
  }

  @Test func anAcceptedReplyIsMarkedSentWithTheExactValidatedBodyAndAVerifiedToken() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    let summary = try await h.sender.drainDue()
    #expect(summary.sent == 1)
    #expect(try h.state(id).name == "sent")
    let received = try #require(h.standIn.requests.first)
    #expect(received.problem == nil)
    #expect(received.status == 202)
    #expect(received.method == "PUT")
    #expect(received.path == "/inApps/v2/transactions/consumption/2000")
    #expect(received.body == OutboxFixture.body)
    #expect(try h.store.attempts(entryId: id).map(\.httpStatus) == [202])
  }

  @Test func rateLimitedWaitsUntilRetryAfterMilliseconds() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    let retryAt = start.addingTimeInterval(90.5)
    h.standIn.enqueue(.rateLimited(retryAfter: retryAt))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id) == .pending(notBefore: retryAt))
    h.clock.advance(to: retryAt.addingTimeInterval(-1))
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.count == 1)
    h.clock.advance(to: retryAt)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(try h.store.attempts(entryId: id).map(\.result) == ["throttled", "sent"])
  }

  @Test(arguments: [0.0, -5.0])
  func aRetryAfterOfNowOrThePastIsNotTriedAgainAtOnceAndWaitsLongerEachTimeInARow(
    offset: Double
  ) async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.standIn.defaultReply = .rateLimited(retryAfter: start.addingTimeInterval(offset))
    // The drain ends (reckon send --once used to loop here until the deadline).
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.count == 1)
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(1)))
    h.clock.advance(to: start.addingTimeInterval(1))
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.count == 2)
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(3)))
    h.standIn.defaultReply = .accepted
    h.clock.advance(to: start.addingTimeInterval(3))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
  }

  /// A send waiting for its app's next slot (far ahead at a low sandbox rate) stops with the
  /// sender rather than keep SIGTERM waiting; the entry stays pending for the next start.
  @Test func aStopIsNotKeptWaitingForASlotFarAhead() async throws {
    let h = try harness(sandboxPerSecond: 0.01)
    defer { h.standIn.shutdown() }
    try OutboxFixture.enqueue(in: h.store, at: start, transaction: "721", environment: .sandbox)
    let waiting = try OutboxFixture.enqueue(
      in: h.store, at: start, transaction: "722", environment: .sandbox)
    let start = self.start
    let clock = h.clock
    _ = try await h.sender.drainDue(isStopped: { clock.now() > start.addingTimeInterval(2) })
    #expect(h.standIn.requests.map(\.transactionId) == ["721"])
    #expect(h.clock.now() < start.addingTimeInterval(10), "it waited out the slot, 100 s ahead")
    #expect(try h.state(waiting).name == "pending")
  }

  /// A clock that steps back 100 s the first time something sleeps, as NTP might, and counts
  /// the time slept.
  final class SteppingBackClock: OutboxClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var stepped = false
    private(set) var slept: TimeInterval = 0
    init(start: Date) { current = start }
    func now() -> Date { lock.withLock { current } }
    func sleep(until date: Date) async throws {
      lock.withLock {
        let seconds = max(0, date.timeIntervalSince(current))
        slept += seconds
        current = current.addingTimeInterval(seconds - (stepped ? 0 : 100))
        stepped = true
      }
    }
  }

  /// A send waiting for its slot sleeps off the wait it was given: a clock stepped back while
  /// it waits does not make it wait the step too (it re-read the wall clock every half second).
  @Test func aClockSteppedBackDuringASlotWaitDoesNotLengthenIt() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let store = try OutboxFixture.temporaryStore()
    let clock = SteppingBackClock(start: start)
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(url),
      configuration: try SenderSettings.fast(sandboxPerSecond: 0.5), clock: clock, random: { 0 },
      maximumConcurrentSends: 1, consentCheck: nil, events: { _ in })
    // Received 200 s ago: due, and still before the sandbox deadline after the step back.
    for transaction in ["731", "732"] {
      try OutboxFixture.enqueue(
        in: store, at: start.addingTimeInterval(-200), transaction: transaction,
        environment: .sandbox)
    }
    _ = try await sender.drainDue()
    #expect(standIn.requests.map(\.transactionId) == ["731", "732"])
    #expect(clock.slept < 5, "slept \(clock.slept) s for a 2 s slot")
  }

  /// Apple's `Retry-After` outlives the sender: a restarted one (or the next `send --once` from
  /// cron) keeps to it rather than send a new entry into the limit.
  @Test func aThrottleOutlastsTheSenderThatWasToldIt() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    try OutboxFixture.enqueue(in: h.store, at: start, transaction: "701")
    let retryAt = start.addingTimeInterval(600)
    h.standIn.enqueue(.rateLimited(retryAfter: retryAt))
    _ = try await h.sender.drainDue()
    let restarted = OutboxSender(
      store: h.store, sender: h.sender.sender,
      configuration: try SenderSettings.fast(), clock: h.clock, random: { 0 },
      maximumConcurrentSends: 1, consentCheck: nil, events: h.events.append)
    let later = try OutboxFixture.enqueue(in: h.store, at: start, transaction: "702")
    h.clock.advance(to: start.addingTimeInterval(3))
    _ = try await restarted.drainDue()
    #expect(h.standIn.requests.map(\.transactionId) == ["701"])
    #expect(try h.state(later) == .pending(notBefore: retryAt))
    h.clock.advance(to: retryAt)
    _ = try await restarted.drainDue()
    #expect(try h.state(later).name == "sent")
  }

  /// A 429 whose `Retry-After` lies past one entry's deadline expires that entry, and still
  /// holds the app: the next entry waited for nothing and went straight into the limit.
  @Test func aThrottlePastOneEntrysDeadlineStillHoldsTheApp() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let closing = try OutboxFixture.enqueue(
      in: h.store, at: start.addingTimeInterval(-12 * 3_600 + 360), transaction: "711")
    let next = try OutboxFixture.enqueue(in: h.store, at: start, transaction: "712")
    let retryAt = start.addingTimeInterval(600)
    h.standIn.enqueue(.rateLimited(retryAfter: retryAt))
    _ = try await h.sender.drainDue()
    #expect(try h.state(closing).name == "expired")
    #expect(h.standIn.requests.map(\.transactionId) == ["711"])
    #expect(try h.state(next) == .pending(notBefore: retryAt))
  }

  @Test func aThrottledAppsEntriesWaitInTheDatabaseWhileOtherAppsSend() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let throttled = try (0..<3).map {
      try OutboxFixture.enqueue(in: h.store, at: start, transaction: "70\($0)")
    }
    let other = try OutboxFixture.enqueue(
      in: h.store, at: start, transaction: "800", bundleId: "com.example.other")
    let retryAt = start.addingTimeInterval(120)
    h.standIn.enqueue(.rateLimited(retryAfter: retryAt))
    _ = try await h.sender.drainDue()
    #expect(try h.state(other).name == "sent")
    // No send slot slept through the throttle (the simulated clock jumps when one sleeps).
    #expect(h.clock.now() < start.addingTimeInterval(5))
    for id in throttled { #expect(try h.state(id) == .pending(notBefore: retryAt)) }
    #expect(h.standIn.requests.map(\.transactionId) == ["700", "800"])
    #expect(try h.store.nextWake() == retryAt)
    h.clock.advance(to: retryAt)
    _ = try await h.sender.drainDue()
    for id in throttled { #expect(try h.state(id).name == "sent") }
  }

  @Test func aPausedAppWithMoreDueEntriesThanADrainTakesNeitherStarvesAnotherAppNorWakesTheSender()
    async throws
  {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let paused = try (0..<520).map {
      try OutboxFixture.enqueue(in: h.store, at: start, transaction: "9\($0)")
    }
    let other = try OutboxFixture.enqueue(
      in: h.store, at: start, transaction: "800", bundleId: "com.example.other")
    h.standIn.enqueue(.unauthorized)
    _ = try await h.sender.drainDue()
    #expect(try h.state(other).name == "sent")
    #expect(h.standIn.requests.map(\.transactionId) == ["90", "800"])
    let resume = start.addingTimeInterval(300)
    #expect(try h.state(paused[519]) == .pending(notBefore: resume))
    // The sender sleeps until the pause ends instead of polling every 10 ms.
    #expect(try h.store.nextWake() == resume)
  }

  @Test func aStoppedDrainSendsNothingMoreAndLeavesTheRestAsTheyWere() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let ids = try (0..<3).map {
      try OutboxFixture.enqueue(in: h.store, at: start, transaction: "60\($0)")
    }
    let standIn = h.standIn
    _ = try await h.sender.drainDue(isStopped: { !standIn.requests.isEmpty })
    #expect(h.standIn.requests.count == 1)
    #expect(try ids.map { try h.state($0).name } == ["sent", "pending", "pending"])
  }

  /// Answers every consent check with `result`, counting the checks.
  final class FixedConsent: ConsentCheck, @unchecked Sendable {
    let result: ConsentCheckResult
    private let lock = NSLock()
    private var count = 0
    var checks: Int { lock.withLock { count } }

    init(_ result: ConsentCheckResult) { self.result = result }

    func consent(for entry: OutboxEntry) async -> ConsentCheckResult {
      lock.withLock { count += 1 }
      return result
    }
  }

  func consentHarness(_ result: ConsentCheckResult) throws -> (Harness, FixedConsent, OutboxSender)
  {
    let (standIn, baseURL) = try TestKey.standIn()
    let h = try Harness(start: start, standIn: standIn, baseURL: baseURL)
    let check = FixedConsent(result)
    let sender = OutboxSender(
      store: h.store, sender: try TestKey.client(baseURL),
      configuration: try SenderSettings.fast(), clock: h.clock, random: { 0 },
      maximumConcurrentSends: 1, consentCheck: check, consentCheckAge: 60,
      events: h.events.append)
    return (h, check, sender)
  }

  /// Answers "given", but only once the clock has passed `until`, as a slow fact source would.
  final class SlowConsent: ConsentCheck, @unchecked Sendable {
    let clock: SimulatedClock
    let until: Date
    init(clock: SimulatedClock, until: Date) {
      self.clock = clock
      self.until = until
    }
    func consent(for entry: OutboxEntry) async -> ConsentCheckResult {
      clock.advance(to: until)
      return .given
    }
  }

  @Test func aReplyWhoseConsentIsConfirmedOnlyAfterTheDeadlineIsNotSent() async throws {
    let (standIn, baseURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let h = try Harness(start: start, standIn: standIn, baseURL: baseURL)
    let deadline = start.addingTimeInterval(12 * 3_600)
    let sender = OutboxSender(
      store: h.store, sender: try TestKey.client(baseURL),
      configuration: try SenderSettings.fast(), clock: h.clock, random: { 0 },
      maximumConcurrentSends: 1,
      consentCheck: SlowConsent(clock: h.clock, until: deadline.addingTimeInterval(1)),
      consentCheckAge: 60, events: h.events.append)
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.clock.advance(to: deadline.addingTimeInterval(-30))
    let summary = try await sender.drainDue()
    #expect(summary.expired == 1)
    #expect(standIn.requests.isEmpty)
    #expect(try h.state(id).name == "expired")
  }

  @Test func aReplyDecidedAMinuteAgoOrMoreGoesOnlyOnceConsentIsReadAgainAsGiven() async throws {
    let (h, check, sender) = try consentHarness(.given)
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.clock.advance(by: 60)
    _ = try await sender.drainDue()
    #expect(check.checks == 1)
    #expect(try h.state(id).name == "sent")
  }

  @Test func aFreshReplyGoesWithoutAskingAgain() async throws {
    let (h, check, sender) = try consentHarness(.notGiven("would refuse"))
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.clock.advance(by: 59)
    _ = try await sender.drainDue()
    #expect(check.checks == 0)
    #expect(try h.state(id).name == "sent")
  }

  /// An entry whose decision time cannot be read cannot be known to be fresh.
  @Test func aReplyWithoutItsDecisionTimeHasConsentReadAgain() async throws {
    let (h, check, sender) = try consentHarness(.notGiven("customer.consented is now false"))
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    try h.store.connection.query(
      "UPDATE outbox SET created_at = 'unreadable' WHERE id = ?", [.integer(id)])
    _ = try await sender.drainDue()
    #expect(check.checks == 1)
    #expect(try h.state(id).name == "failed")
    #expect(h.standIn.requests.isEmpty)
  }

  @Test func aHeldReplyWhoseCustomerWithdrewConsentIsNeverSent() async throws {
    let (h, _, sender) = try consentHarness(.notGiven("customer.consented is now false"))
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start, hold: true)
    h.clock.advance(to: start.addingTimeInterval(11 * 3_600))
    let summary = try await sender.drainDue()
    #expect(summary.failed == 1)
    #expect(h.standIn.requests.isEmpty)
    guard case .failed(_, let reason) = try h.state(id) else {
      Issue.record("not failed: \(try h.state(id))")
      return
    }
    #expect(
      reason == "not sent without the customer's consent: customer.consented is now false")
    let attempt = try #require(try h.store.attempts(entryId: id).first)
    #expect(attempt.httpStatus == nil)
    #expect(attempt.result == "failed")
    #expect(h.events.lines.contains { $0.contains("not sent without the customer's consent") })
  }

  @Test func aReplyWhoseConsentCannotBeReadWaitsAndIsTriedAgain() async throws {
    let (h, check, sender) = try consentHarness(.unknown("app-db timed out"))
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.clock.advance(by: 120)
    _ = try await sender.drainDue()
    #expect(h.standIn.requests.isEmpty)
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(135)))
    #expect(try h.store.attempts(entryId: id).map(\.result) == ["retry"])
    h.clock.advance(by: 15)
    _ = try await sender.drainDue()
    #expect(check.checks == 2)
    #expect(h.standIn.requests.isEmpty)
  }

  /// Records the deadline each send was given, and accepts it.
  final class DeadlineRecorder: ConsumptionSender, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Date] = []
    var deadlines: [Date] { lock.withLock { stored } }

    func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
      -> ConsumptionDelivery
    {
      Issue.record("sent without its deadline")
      return .answered(.init(status: 202))
    }

    func send(
      _ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp,
      before deadline: Date
    ) async -> ConsumptionDelivery {
      lock.withLock { stored.append(deadline) }
      return .answered(.init(status: 202))
    }
  }

  @Test func eachSendIsGivenTheEntrysDeadlineSoNoReplyIsInFlightAfterIt() async throws {
    let store = try OutboxFixture.temporaryStore()
    let recorder = DeadlineRecorder()
    let sender = OutboxSender(
      store: store, sender: recorder, configuration: try SenderSettings.fast(),
      clock: SimulatedClock(start: start), consentCheck: nil)
    // Received so long ago that the deadline comes before the send's lease would lapse.
    let id = try OutboxFixture.enqueue(in: store, at: start.addingTimeInterval(-12 * 3_600 + 100))
    _ = try await sender.drainDue()
    #expect(try store.entry(id: id).state.name == "sent")
    #expect(recorder.deadlines == [start.addingTimeInterval(100)])
  }

  /// A send still in flight when its lease lapses would be made again by another sender beside
  /// it, so each is given up before then: a fifth of the lease, or 10 s, before it lapses.
  @Test(arguments: [(10.0, 8.0), (300.0, 290.0)])
  func aSendIsGivenUpBeforeItsLeaseLapses(lease: Double, givenUpAfter: Double) async throws {
    let store = try OutboxFixture.temporaryStore()
    let recorder = DeadlineRecorder()
    let sender = OutboxSender(
      store: store, sender: recorder, configuration: try SenderSettings.fast(),
      clock: SimulatedClock(start: start), sendLeaseSeconds: lease, consentCheck: nil)
    try OutboxFixture.enqueue(in: store, at: start)
    #expect(try await sender.drainDue().sent == 1)
    #expect(recorder.deadlines == [start.addingTimeInterval(givenUpAfter)])
  }

  @Test func serverErrorsRetryWithBackoffUntilAccepted() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.standIn.enqueue(.serverError, .serverError)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(15)))
    h.clock.advance(by: 15)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(45)))
    h.clock.advance(by: 30)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(try h.store.attempts(entryId: id).map(\.errorCode) == [5_000_000, 5_000_000, nil])
  }

  @Test func networkErrorsRetryWithBackoff() async throws {
    let h = try harness(url: URL(string: "http://127.0.0.1:1")!)
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id) == .pending(notBefore: start.addingTimeInterval(15)))
    #expect(try h.store.attempts(entryId: id).first?.result == "retry")
  }

  @Test func anEntryThatKeepsFailingExpiresLoudlyAndNothingIsSentAfterTheDeadline() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    h.standIn.defaultReply = .serverError
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    let deadline = start.addingTimeInterval(12 * 3_600)
    for _ in 0..<60 {
      _ = try await h.sender.drainDue()
      guard let wake = try h.store.nextWake() else { break }
      h.clock.advance(to: wake)
    }
    #expect(try h.state(id).name == "expired")
    #expect(try h.store.attempts(entryId: id).allSatisfy { $0.startedAt < deadline })
    #expect(h.events.lines.contains { $0.hasPrefix("error: entry \(id) EXPIRED") })
  }

  @Test(arguments: [
    StandInReply.badRequest(errorCode: 4_000_185, message: "Family sharing."), .notFound,
  ])
  func badRequestAndNotFoundStopAndRecordApplesCodeAndMessage(reply: StandInReply) async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    h.standIn.enqueue(reply)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "failed")
    let attempt = try #require(try h.store.attempts(entryId: id).first)
    #expect(attempt.httpStatus == reply.status)
    #expect(attempt.errorCode == (reply.status == 404 ? 4_040_010 : 4_000_185))
    #expect(attempt.errorMessage?.isEmpty == false)
    h.clock.advance(by: 3_600)
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.count == 1)
  }

  @Test func unauthorizedPausesOnlyThatAppWithoutBurningOtherEntriesAttempts() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let ids = try (0..<3).map {
      try OutboxFixture.enqueue(in: h.store, at: start, transaction: "30\($0)")
    }
    let other = try OutboxFixture.enqueue(
      in: h.store, at: start, transaction: "400", bundleId: "com.example.other")
    h.standIn.enqueue(.unauthorized)
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.filter { $0.status == 401 }.count == 1)
    for id in ids {
      #expect(try h.state(id).name == "pending")
      #expect(try h.store.entry(id: id).attempts == 0)
    }
    #expect(h.events.lines.contains { $0.contains("CREDENTIALS PROBLEM for com.example") })
    #expect(try h.store.pauses().map(\.app.bundleId) == ["com.example"])
    #expect(try h.state(other).name == "sent")
    h.clock.advance(by: 300)
    _ = try await h.sender.drainDue()
    for id in ids { #expect(try h.state(id).name == "sent") }
    #expect(try h.store.pauses().isEmpty)
  }

  /// A Sandbox reply has five minutes: a 401 pauses its app for a minute, not the five that
  /// would expire every reply queued for it.
  @Test func unauthorizedPausesASandboxAppForAMinuteOnly() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let ids = try (0..<2).map {
      try OutboxFixture.enqueue(
        in: h.store, at: start, transaction: "35\($0)", environment: .sandbox)
    }
    h.standIn.enqueue(.unauthorized)
    _ = try await h.sender.drainDue()
    #expect(try h.store.pauses().map(\.until) == [start.addingTimeInterval(60)])
    h.clock.advance(by: 60)
    _ = try await h.sender.drainDue()
    for id in ids { #expect(try h.state(id).name == "sent") }
  }

  @Test func sendsArePacedPerAppByTheConfiguredRate() async throws {
    let h = try harness(sandboxPerSecond: 5)
    defer { h.standIn.shutdown() }
    let ids = try (0..<6).map {
      try OutboxFixture.enqueue(
        in: h.store, at: start, transaction: "50\($0)", environment: .sandbox)
    }
    _ = try await h.sender.drainDue()
    let starts = try ids.map {
      try #require(try h.store.attempts(entryId: $0).first).startedAt.timeIntervalSince(start)
    }
    #expect(starts.map { ($0 * 1_000).rounded() } == [0, 220, 440, 660, 880, 1_100])
  }

  @Test func aHeldEntryWaitsForApprovalOrGoesOutAnHourBeforeTheDeadline() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let approved = try OutboxFixture.enqueue(in: h.store, at: start, transaction: "601", hold: true)
    let unattended = try OutboxFixture.enqueue(
      in: h.store, at: start, transaction: "602", hold: true)
    _ = try await h.sender.drainDue()
    #expect(h.standIn.requests.isEmpty)
    var entry = try h.store.entry(id: approved)
    try entry.approve(now: h.clock.now())
    try h.store.save(&entry, now: h.clock.now())
    _ = try await h.sender.drainDue()
    #expect(try h.state(approved).name == "sent")
    #expect(try h.state(unattended).name == "held")
    h.clock.advance(to: start.addingTimeInterval(11 * 3_600))
    _ = try await h.sender.drainDue()
    #expect(try h.state(unattended).name == "sent")
    #expect(h.standIn.requests.map(\.transactionId) == ["601", "602"])
  }

  @Test func aSendInterruptedByACrashIsSentAgainWithTheSameBody() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    var entry = try h.store.entry(id: id)
    guard case .send = entry.poll(now: start) else {
      Issue.record("not sendable")
      return
    }
    try h.store.save(&entry, now: start)  // the process "dies" here, after persisting `sending`
    let lease = try h.store.takeSenderLease()
    defer { lease.release() }
    _ = try await h.sender.drainDue(holding: lease)
    #expect(try h.state(id).name == "sent")
    #expect(try h.store.entry(id: id).interruptedSends == 1)
    #expect(try h.store.attempts(entryId: id).map(\.result) == ["interrupted", "sent"])
  }

  /// A sender without an exclusive lease cannot tell a send in flight elsewhere from one whose
  /// sender died: it leaves the entry until the send's lease lapses, then sends it again.
  @Test func aSendLeftInFlightIsTakenOverOnlyOnceItsLeaseLapses() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    var entry = try h.store.entry(id: id)
    guard case .send = entry.poll(now: start) else {
      Issue.record("not sendable")
      return
    }
    try h.store.save(&entry, now: start)
    h.clock.advance(to: start.addingTimeInterval(299))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sending")
    #expect(h.standIn.requests.isEmpty)
    h.clock.advance(to: start.addingTimeInterval(301))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "sent")
    #expect(try h.store.attempts(entryId: id).map(\.result) == ["interrupted", "sent"])
  }

  @Test func aSendInterruptedByACrashThatOutlivesTheDeadlineIsNotCalledUnsent() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    var entry = try h.store.entry(id: id)
    guard case .send = entry.poll(now: start) else {
      Issue.record("not sendable")
      return
    }
    try h.store.save(&entry, now: start)  // dies after persisting `sending`, restarts too late
    h.clock.advance(to: start.addingTimeInterval(12 * 3_600))
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "expired")
    #expect(h.standIn.requests.isEmpty)
    #expect(
      h.events.lines.contains {
        $0.hasPrefix("error: entry \(id) EXPIRED:") && $0.contains("may have reached the store")
      }, "\(h.events.lines)")
    #expect(!h.events.lines.contains { $0.contains("EXPIRED unsent") })
  }

  @Test func aStoredBodyThatNoLongerValidatesIsNeverSent() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    // An earlier try's answer: not what fails the entry, so not kept beside the reason.
    try h.store.connection.query(
      "UPDATE outbox SET body = ?, last_status = 200 WHERE id = ?",
      [.blob(Data(#"{"customerConsented":false}"#.utf8)), .integer(id)])
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "failed")
    #expect(h.standIn.requests.isEmpty)
    let entry = try #require(try h.store.entries().first { $0.id == id })
    #expect(entry.lastStatus == nil)
    // The history says why, beside the tries before it.
    let history = try h.store.attempts(entryId: id)
    #expect(history.last?.result == "failed", "\(history)")
    #expect(history.last?.httpStatus == nil)
    #expect(history.last?.errorMessage == entry.lastError)
  }

  /// The checks before a send know what the decision knew of the transaction, Advanced Commerce
  /// included: a body Apple refuses for one is never sent, however it reached the outbox.
  @Test func anEntryForAnAdvancedCommerceTransactionIsNeverSent() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    // Queuing refuses it too, so the entry is marked as one after.
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    try h.store.connection.query(
      "UPDATE outbox SET advanced_commerce = 1 WHERE id = ?", [.integer(id)])
    #expect(ConsumptionValidationContext(try h.store.entry(id: id).context).isAdvancedCommerce)
    _ = try await h.sender.drainDue()
    #expect(try h.state(id).name == "failed")
    #expect(h.standIn.requests.isEmpty)
  }

  /// A database that refuses writes for a quarter of an hour is tried every poll (180 times)
  /// but reported when it starts and every five minutes, not at every try; its end is reported,
  /// and the entry then goes out.
  @Test func aLastingDatabaseProblemIsReportedNowAndThenAndItsEndOnce() async throws {
    let h = try harness()
    defer { h.standIn.shutdown() }
    let id = try OutboxFixture.enqueue(in: h.store, at: start)
    try h.store.refuseWrites(true)
    let store = h.store
    let clock = h.clock
    let start = start
    let writable = Flag()
    try await h.sender.run(pollInterval: 5) {
      if !writable.isSet, clock.now() >= start.addingTimeInterval(900) {
        try? store.refuseWrites(false)
        writable.set()
      }
      return clock.now() >= start.addingTimeInterval(960)
    }
    let problems = h.events.all.filter {
      if case .databaseProblem = $0 { true } else { false }
    }
    let recoveries = h.events.all.compactMap {
      if case .databaseRecovered(let after) = $0 { after } else { nil }
    }
    // At 0, 300 and 600 s; writable again at 900.
    #expect(problems.count == 3, "\(h.events.lines)")
    #expect(recoveries.count == 1)
    #expect((900...906).contains(recoveries.first ?? 0))
    #expect(try h.state(id).name == "sent")
  }
}
