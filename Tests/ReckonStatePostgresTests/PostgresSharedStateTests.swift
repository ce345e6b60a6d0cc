import Foundation
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Synchronization
import Testing

/// Several instances on one database, each with a store of its own: what one records, decides,
/// claims, paces or holds, every other sees and keeps to.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct PostgresSharedStateTests {
  typealias Fixture = StateSamples

  /// `count` stores on one new database, as that many instances would open it.
  static func instances(_ count: Int) throws -> [PostgresStateStore] {
    let url = try TestPostgres.freshDatabase()
    return try (0..<count).map { _ in
      try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    }
  }

  /// Runs `body` for each of `count` workers at once, on threads of their own.
  static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T)
    -> [Result<T, any Error>]
  {
    let results = Mutex([Result<T, any Error>?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { index in
      let result = Result { try body(index) }
      results.withLock { $0[index] = result }
    }
    return results.withLock { $0.map { $0! } }
  }

  @Test func copiesReceivedByEveryInstanceAtOnceAreRecordedOnce() throws {
    let stores = try Self.instances(4)
    let record = Fixture.notification()
    let results = Self.concurrently(8) { index in
      try stores[index % stores.count].recordNotification(record)
    }
    let recorded = try results.map { try $0.get() }
    #expect(recorded.filter { if case .recorded = $0 { true } else { false } }.count == 1)
    #expect(Set(recorded.map(\.requestId)).count == 1)
  }

  @Test func aRequestDecidedByEveryInstanceAtOnceHasOneDecisionAndOneReply() throws {
    let stores = try Self.instances(4)
    let request = try stores[0].recordNotification(Fixture.notification()).requestId
    let receipts = try Self.concurrently(8) { index in
      try stores[index % stores.count].recordDecision(
        Fixture.decision(), requestId: request, enqueue: Fixture.enqueue())
    }.map { try $0.get() }
    #expect(receipts.filter { !$0.alreadyDecided }.count == 1)
    #expect(Set(receipts.map(\.entryId)).count == 1)
    #expect(try stores[1].decisionCount(requestId: request) == 1)
    #expect(try stores[2].entryCount(states: []) == 1)
  }

  @Test func aRepeatIsFoundWhicheverInstanceRecordsIt() throws {
    let stores = try Self.instances(2)
    let first = try stores[0].recordNotification(Fixture.notification())
    let again = try stores[1].recordNotification(
      Fixture.notification(at: Fixture.start.addingTimeInterval(60)))
    #expect(again == .repeated(requestId: again.requestId, of: first.requestId))
  }

  @Test func aClaimKeepsOtherInstancesAwayUntilReleased() throws {
    let stores = try Self.instances(2)
    let request = try stores[0].recordNotification(Fixture.notification()).requestId
    #expect(try stores[0].claimRequest(request))
    #expect(try !stores[1].claimRequest(request))
    try stores[1].releaseRequest(request)
    #expect(try !stores[1].claimRequest(request), "only the holder releases a claim")
    try stores[0].releaseRequest(request)
    #expect(try stores[1].claimRequest(request))
  }

  @Test func instancesShareOnePaceAndOneHold() throws {
    let stores = try Self.instances(3)
    let start = Fixture.start
    let slots = try (0..<6).map { try stores[$0 % 3].reserveSendSlot("app", rate: 50, now: start) }
    #expect(
      slots.map { ($0.timeIntervalSince(start) * 1_000).rounded() } == [0, 22, 44, 66, 88, 110])
    let held = try stores[0].holdSends("app", until: start.addingTimeInterval(5), now: start)
    #expect(try stores[2].sendsHeldUntil("app", now: start) == held)
    #expect(try stores[1].reserveSendSlot("app", rate: 50, now: start) == held)
  }

  /// Slots reserved from many threads on several instances at once never come closer than the
  /// rate allows: 50 a second is one every 22 ms (a second and its jitter allowance).
  @Test func slotsReservedAtOnceByEveryInstanceKeepTheRate() throws {
    let stores = try Self.instances(3)
    let start = Fixture.start
    let slots = try Self.concurrently(60) { index in
      try stores[index % 3].reserveSendSlot("app", rate: 50, now: start)
    }.map { try $0.get() }.sorted()
    let gaps = zip(slots.dropFirst(), slots).map { $0.timeIntervalSince($1) }
    #expect(gaps.allSatisfy { abs($0 - 0.022) < 0.000_1 }, "\(gaps)")
    #expect(Set(slots).count == 60)
  }

  /// Starts admitted from many threads on several instances at once keep the rate in every
  /// second, however late each left for its slot: instances see each other's starts.
  @Test func startsAdmittedAtOnceByEveryInstanceKeepTheRateInEverySecond() throws {
    let stores = try Self.instances(3)
    #expect(stores.allSatisfy { $0.sharesSendStarts })
    let start = Date()
    let answers = try Self.concurrently(12) { index in
      try stores[index % 3].admitSendStart("app", rate: 5, now: start)
    }.map { try $0.get() }
    #expect(answers.filter { $0 == nil }.count == 5)
    #expect(
      answers.compactMap { $0 }.allSatisfy {
        $0 > start.addingTimeInterval(0.5) && $0 <= start.addingTimeInterval(1)
      }, "\(answers)")
    // A second on, the first starts have left the window: five more, and no sixth.
    Thread.sleep(forTimeInterval: 1.05)
    let next = try (0..<6).map { try stores[$0 % 3].admitSendStart("app", rate: 5, now: start) }
    #expect(next.prefix(5).allSatisfy { $0 == nil })
    #expect(next.last! != nil)
    // Another app's window is its own.
    #expect(try stores[0].admitSendStart("other", rate: 5, now: start) == nil)
  }

  /// The window is on the database's clock: an instance whose clock is a minute off, either
  /// way, still counts the others' starts and is counted by them.
  @Test(arguments: [-60.0, 60.0])
  func anInstanceWhoseClockIsOffStillSharesTheWindow(offset: TimeInterval) throws {
    let stores = try Self.instances(2)
    let now = Date()
    for _ in 0..<2 { #expect(try stores[0].admitSendStart("app", rate: 3, now: now) == nil) }
    let skewed = now.addingTimeInterval(offset)
    #expect(try stores[1].admitSendStart("app", rate: 3, now: skewed) == nil)
    let refused = try #require(try stores[1].admitSendStart("app", rate: 3, now: skewed))
    #expect(refused > skewed && refused <= skewed.addingTimeInterval(1), "\(refused)")
    #expect(try stores[0].admitSendStart("app", rate: 3, now: now) != nil)
  }

  @Test func everyInstanceSendsAndTheLeadMovesWhenItsHolderLetsGo() throws {
    let stores = try Self.instances(2)
    let senders = stores.map { $0.takeSenderLease() }
    #expect(senders.allSatisfy { $0.isHeld && !$0.isExclusive })
    let leads = stores.map { $0.takeLeaderLease() }
    #expect(leads[0].refresh())
    #expect(!leads[1].refresh(), "one instance leads at a time")
    leads[0].release()
    #expect(leads[1].refresh())
    #expect(!leads[0].refresh())
    leads[1].release()
  }

  @Test func theLeadOfAnInstanceWhoseSessionEndedGoesToAnother() throws {
    let url = try TestPostgres.freshDatabase()
    let stores = try (0..<2).map { _ in
      try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    }
    let leads = stores.map { $0.takeLeaderLease() }
    defer { for lead in leads { lead.release() } }
    #expect(leads[0].refresh())
    // As the server does when the leader's machine stops answering its keepalives.
    let database = String(url.split(separator: "/").last!)
    try PostgresAddress(url: try TestPostgres.serverAddress() + "/postgres").administer(
      """
      SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND objid = 2 AND database = (
        SELECT oid FROM pg_database WHERE datname = '\(database)')
      """)
    #expect(leads[1].refresh(), "the lock went with the session")
    #expect(!leads[0].refresh(), "the old leader finds it lost the lead")
    #expect(!leads[0].isLeader)
  }

  @Test func instancesClaimDifferentDueEntriesUntilTheClaimLapses() throws {
    let stores = try Self.instances(2)
    for index in 0..<100 { _ = try Fixture.enqueued(in: stores[0], transaction: "t\(index)") }
    let now = Fixture.start.addingTimeInterval(1)
    let lease = now.addingTimeInterval(-60)
    let first = try stores[0].dueEntries(now: now, leaseLapsedBefore: lease, limit: 512)
    let second = try stores[1].dueEntries(now: now, leaseLapsedBefore: lease, limit: 512)
    #expect(first.count == 64)
    #expect(second.count == 36)
    #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
    #expect(first.map(\.deadline) == first.map(\.deadline).sorted(), "earliest deadline first")
    #expect(
      try stores[0].dueEntries(now: now, leaseLapsedBefore: lease, limit: 512).map(\.id)
        == first.map(\.id),
      "an instance's own claims stay its own")
    #expect(try stores[1].dueEntries(now: now, leaseLapsedBefore: lease, limit: 512).count == 36)
    let later = now.addingTimeInterval(61)
    let lapsed = try stores[1].dueEntries(
      now: later, leaseLapsedBefore: later.addingTimeInterval(-60), limit: 512)
    #expect(
      Set(lapsed.map(\.id)) == Set(first.map(\.id)),
      "a claim its holder never saved is free once the send lease (here a minute) lapsed")
  }

  @Test func anEntrySavedByOneInstanceIsRefusedToAnotherThatReadItBefore() throws {
    let stores = try Self.instances(2)
    var mine = try Fixture.enqueued(in: stores[0])
    var theirs = try stores[1].entry(id: mine.id)
    let now = Fixture.start.addingTimeInterval(1)
    mine.state = .sending(since: now)
    try stores[0].save(&mine, attempt: nil, now: now)
    theirs.state = .sending(since: now)
    #expect(throws: StateError.changedConcurrently(entry: mine.id)) {
      try stores[1].save(&theirs, attempt: nil, now: now)
    }
  }
}
