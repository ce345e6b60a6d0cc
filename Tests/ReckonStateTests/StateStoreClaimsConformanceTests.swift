import Foundation
import ReckonState
import Testing

/// What every backend must do so that several deciders and senders can share it: claims on
/// requests, leases on sends and on the sender, and one pace per app.
@Suite struct StateStoreClaimsConformanceTests {
  typealias Fixture = StateRecordsFixture

  @Test(arguments: StateBackend.all)
  func aRequestIsClaimedByOneDeciderAtATime(_ backend: StateBackend) throws {
    let store = try backend.make()
    let request = try store.recordNotification(Fixture.notification()).requestId
    #expect(try store.claimRequest(request))
    #expect(try !store.claimRequest(request))
    #expect(try store.claimRequest(request + 1), "a claim holds one request only")
    try store.releaseRequest(request)
    #expect(try store.claimRequest(request))
  }

  /// A send saved `sending` is its sender's until its lease lapses; then it is due again, for
  /// whoever takes it over.
  @Test(arguments: StateBackend.all)
  func aSendLeftInFlightIsDueOnlyOnceItsLeaseLapses(_ backend: StateBackend) throws {
    let store = try backend.make()
    var entry = try Fixture.enqueued(in: store)
    let began = Fixture.start.addingTimeInterval(1)
    entry.state = .sending(since: began)
    try store.save(&entry, attempt: nil, now: began)
    let later = began.addingTimeInterval(60)
    #expect(try store.dueEntries(now: later, leaseLapsedBefore: began, limit: 10).isEmpty)
    #expect(
      try store.dueEntries(now: later, leaseLapsedBefore: began.addingTimeInterval(1), limit: 10)
        .map(\.id) == [entry.id])
    // Taken over by one sender, it is no longer another's to take.
    var takenOver = try #require(
      store.dueEntries(now: later, leaseLapsedBefore: later, limit: 10).first)
    var rival = takenOver
    takenOver.state = .pending(notBefore: later)
    try store.save(&takenOver, attempt: nil, now: later)
    rival.state = .pending(notBefore: later)
    #expect(throws: StateError.changedConcurrently(entry: entry.id)) {
      try store.save(&rival, attempt: nil, now: later)
    }
  }

  /// An exclusive lease (an embedded state's) keeps every other sender away; a shared one (a
  /// state several instances send from) is taken by each.
  @Test(arguments: StateBackend.all)
  func theSenderLeaseIsHeldByOneSenderAtATimeUnlessShared(_ backend: StateBackend) throws {
    let store = try backend.make()
    let first = try store.takeSenderLease()
    #expect(first.isHeld)
    #expect(store.isOwnLease(first))
    if first.isExclusive {
      #expect(throws: SenderLockError.self) { try store.takeSenderLease() }
    } else {
      let beside = try store.takeSenderLease()
      #expect(store.isOwnLease(beside))
      beside.release()
      #expect(store.isOwnLease(first), "another sender's release leaves this one's lease held")
    }
    first.release()
    #expect(!first.isHeld)
    #expect(!store.isOwnLease(first), "a released lease keeps no sender away")
    let second = try store.takeSenderLease()
    defer { second.release() }
    #expect(store.isOwnLease(second))
    let other = try backend.make()
    #expect(!other.isOwnLease(second), "another state's lease is not this one's")
  }

  @Test(arguments: StateBackend.all)
  func theLeaderLeaseLeadsUntilReleased(_ backend: StateBackend) throws {
    let store = try backend.make()
    let lease = store.takeLeaderLease()
    #expect(lease.refresh())
    #expect(lease.isLeader)
    #expect(lease.refresh(), "a lead held stays held")
    lease.release()
    #expect(!lease.isLeader)
    #expect(!lease.refresh(), "a released lease is not taken again")
    let next = store.takeLeaderLease()
    defer { next.release() }
    #expect(next.refresh(), "the lead released is free for the next")
  }

  @Test(arguments: StateBackend.all)
  func sendsArePacedPerAppAndHeldAfterARefusal(_ backend: StateBackend) throws {
    let store = try backend.make()
    let start = Fixture.start
    let slots = try (0..<3).map { _ in try store.reserveSendSlot("slow", rate: 5, now: start) }
    #expect(slots.map { ($0.timeIntervalSince(start) * 1_000).rounded() } == [0, 220, 440])
    #expect(try store.reserveSendSlot("fast", rate: 50, now: start) == start)
    let held = try store.holdSends("fast", until: start.addingTimeInterval(5), now: start)
    #expect(held == start.addingTimeInterval(5))
    #expect(try store.sendsHeldUntil("fast", now: start) == held)
    #expect(try store.reserveSendSlot("fast", rate: 50, now: start) == held)
    #expect(try store.sendsHeldUntil("fast", now: held) == nil)
    #expect(try store.sendsHeldUntil("slow", now: start) == nil)
    try store.restoreHold("slow", until: start.addingTimeInterval(9), now: start)
    #expect(try store.sendsHeldUntil("slow", now: start) == start.addingTimeInterval(9))
    // A run of refusals builds its hold up until the store accepts a send.
    let now = start.addingTimeInterval(100)
    #expect(try store.holdSends("app", until: now, now: now) == now.addingTimeInterval(1))
    let after = now.addingTimeInterval(1)
    #expect(try store.holdSends("app", until: after, now: after) == after.addingTimeInterval(2))
    try store.sendAccepted("app")
    let fresh = after.addingTimeInterval(10)
    #expect(try store.holdSends("app", until: fresh, now: fresh) == fresh.addingTimeInterval(1))
  }

  /// A state several processes send from admits at most the rate of starts in any second; one
  /// that one process sends from admits each start, its sender keeping its own window. A
  /// shared window may be kept on the state's own clock, so the second is waited out in real
  /// time, and the time it gives is on the caller's clock (`now` a day from the real one).
  @Test(arguments: StateBackend.all)
  func startsAreAdmittedAtTheRateWhereTheStateSharesThem(_ backend: StateBackend) throws {
    let store = try backend.make()
    let start = Date().addingTimeInterval(86_400)
    let answers = try (0..<4).map { _ in try store.admitSendStart("app", rate: 3, now: start) }
    guard store.sharesSendStarts else {
      #expect(answers.allSatisfy { $0 == nil })
      return
    }
    #expect(answers.prefix(3).allSatisfy { $0 == nil })
    let free = try #require(answers[3])
    #expect(free > start.addingTimeInterval(0.5) && free <= start.addingTimeInterval(1), "\(free)")
    Thread.sleep(forTimeInterval: 1.05)
    #expect(try store.admitSendStart("app", rate: 3, now: start) == nil)
  }
}
