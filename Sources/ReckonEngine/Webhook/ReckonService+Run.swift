import Foundation
import ReckonState

extension ReckonService {
  /// How often `run()`'s loops act.
  public struct Intervals: Sendable {
    /// How often policy files are checked for changes.
    public var policyPoll: Double = 1
    /// How often undecided requests are retried.
    public var retry: Double = 30
    /// How often the sender looks for newly due entries.
    public var senderPoll: Double = 0.25
    /// How long after start the state database is first pruned (with `keepDays`): not while a
    /// service starting up is busiest.
    public var firstPrune: Double = 60
    /// How long after one prune ends the next begins.
    public var prune: Double = 86_400
    /// How often the lead on the once-only work is checked, and taken when free: how soon
    /// another instance takes over from one that died.
    public var leadership: Double = 1
    /// How often a standby (`run(standby: true)`) tries the sender lease another sender holds:
    /// how soon it sends once that one stops.
    public var senderStandby: Double = 5

    /// The defaults: policies every second, retries every 30 s, the sender every 250 ms,
    /// pruning a minute after start and then daily, the lead checked every second, a standby's
    /// sender lease tried every 5 s.
    public init() {}
  }

  /// Runs every background loop until the calling task is cancelled: the sender (holding the
  /// state's sender lease), the retry of undecided requests, policy reloads, pruning (with
  /// `keepDays`) and the lead on the once-only work that several instances sharing a state
  /// take turns at. `reckon serve` runs the same call beside its HTTP listener.
  ///
  /// The sender lease is taken before any loop starts: when another sender holds it, this
  /// throws `SenderLockError.heldByAnotherSender` at once and nothing runs, or, with `standby`,
  /// every other loop runs and the sender stands by (`SenderEvent.standingBy`), trying the
  /// lease every `Intervals.senderStandby` and sending once it has it (`SenderEvent.tookOver`).
  /// Each run starts with `stoppedLoops` empty. `lock`, when given, is one already taken for
  /// this state;
  /// without `sending`, or without a sender, no lease is taken and `lock` is released.
  /// `leader`, when given, is refreshed here and left to its owner; otherwise one is taken and
  /// given up when this returns.
  ///
  /// Cancellation is not passed on to the work under way: each loop sees it within a tenth of
  /// a second (the sender between sends, the retries between requests), so a send, a decision
  /// or a prune transaction in flight finishes, and what is not sent yet stays queued. Then the lease is released, the state is
  /// checkpointed, and this returns. A loop that stops on an error is reported
  /// (`ReckonEvent.loopFailed`) and named in `stoppedLoops`; the others go on.
  public func run(
    intervals: Intervals = Intervals(), holding lock: (any SenderLease)? = nil,
    sending: Bool = true, leader: (any LeaderLease)? = nil, standby: Bool = false
  ) async throws {
    let held: (any SenderLease)?
    var heldElsewhere: String?
    do {
      held = try senderLease(lock, sending: sending)
    } catch SenderLockError
      .heldByAnotherSender(let path)
    {
      guard standby else { throw SenderLockError.heldByAnotherSender(path: path) }
      (held, heldElsewhere) = (nil, path)
    }
    loopsStopped.clear()
    let lead = leader ?? store.takeLeaderLease()
    // A restart is how a fixed fact source or configuration goes live: the requests waiting
    // out a failed retry's delay are tried now, not up to ten minutes later.
    try? store.makeRetriesDue()
    let stop = StopFlag()
    // Not a child of the caller's task, so its cancellation reaches the loops only as the flag;
    // awaited below whatever happens, so nothing outlives this call.
    let loops = Task {
      await runLoops(
        intervals, sender: held, standingByFor: heldElsewhere, leader: lead, stop: stop)
    }
    await withTaskCancellationHandler {
      await loops.value
    } onCancel: {
      stop.set()
    }
    if leader == nil { lead.release() }
    // Every request answered and send recorded is then in the state file itself.
    _ = try? store.checkpoint()
  }

  /// The lease the sender loop runs with, taken now; nil when there is nothing to send.
  private func senderLease(_ lock: (any SenderLease)?, sending: Bool) throws -> (any SenderLease)? {
    guard sending, sender != nil else {
      lock?.release()
      return nil
    }
    // A lock refused as another state's (`notHeld`) stops the sender loop alone, as
    // `runSender` refuses it.
    return try lock ?? store.takeSenderLease()
  }

  private func runLoops(
    _ intervals: Intervals, sender lease: (any SenderLease)?, standingByFor lockName: String?,
    leader: any LeaderLease, stop: StopFlag
  ) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await self.loop("leadership", every: intervals.leadership, stop: stop, first: true) {
          self.refreshLead(leader)
        }
      }
      if let lease {
        group.addTask {
          await self.guarded("sender") {
            try await self.runSender(
              pollInterval: intervals.senderPoll, holding: lease, isStopped: { stop.isSet() })
          }
        }
      } else if let lockName {
        group.addTask {
          await self.guarded("sender") {
            guard let lease = try await self.standBy(lockName, intervals, stop: stop) else {
              return
            }
            try await self.runSender(
              pollInterval: intervals.senderPoll, holding: lease, isStopped: { stop.isSet() })
          }
        }
      }
      group.addTask {
        await self.retryLeftOver(since: self.createdAt, leader: leader, stop: stop)
        await self.loop("retry", every: intervals.retry, stop: stop) {
          if leader.isLeader { await self.retryUndecided(isStopped: { stop.isSet() }) }
        }
      }
      group.addTask {
        await self.loop("policy-watch", every: intervals.policyPoll, stop: stop) {
          self.reloadPolicies()
        }
      }
      if keepDays != nil {
        group.addTask { await self.pruneLoop(intervals, leader: leader, stop: stop) }
      }
    }
  }

  /// Decides at once the requests an earlier process recorded but never decided (it was killed
  /// in between): Apple's retry of them is answered 200 as a duplicate, so nothing else would
  /// decide them before the first retry interval. A pass takes at most 100, so pass again while
  /// one decides something (the set, received before `started`, is finite). `started` is when
  /// this service was made, not when `run()` began: a webhook listens before its loops start,
  /// and a request it is still handling, recorded but not yet claimed, would be taken up here
  /// and decided apart from its own answer and log lines.
  private func retryLeftOver(since started: Date, leader: any LeaderLease, stop: StopFlag) async {
    _ = refreshLead(leader)
    while !stop.isSet(), leader.isLeader,
      await retryUndecided(
        olderThan: Date().timeIntervalSince(started), isStopped: { stop.isSet() }) > 0
    {}
  }

  /// Refreshes `leader` and reports a change (`leadChanged`): which instance retries and prunes
  /// is what an operator of several looks for first. `run()` calls it every
  /// `Intervals.leadership`; call it before, to have the lead known and said at once.
  @discardableResult
  public func refreshLead(_ leader: any LeaderLease) -> Bool {
    leads.withLock { reported in
      let now = leader.refresh()
      if now != reported {
        // A start without the lead is said too: a second serve on one file would otherwise
        // run on without a word of what it leaves to the other.
        pipeline.events(reported == nil && !now ? .following : .leadChanged(leads: now))
        reported = now
      }
      return now
    }
  }

  /// Runs `body` every `seconds` until `stop` (at once too, with `first`), looking at the flag
  /// every tenth of a second.
  private func loop(
    _ name: String, every seconds: Double, stop: StopFlag, first: Bool = false,
    _ body: @Sendable () async -> Void
  ) async {
    var next = first ? Date() : Date().addingTimeInterval(seconds)
    while !stop.isSet() {
      if Date() >= next {
        await body()
        next = Date().addingTimeInterval(seconds)
      }
      try? await Task.sleep(nanoseconds: UInt64(min(0.1, max(0.001, seconds)) * 1e9))
    }
  }

  /// Waits for the sender lease another sender holds, trying it every
  /// `intervals.senderStandby`; nil when stopped first. Says when it starts waiting and when it
  /// has the lease, so a standby is seen as one.
  private func standBy(_ lockName: String, _ intervals: Intervals, stop: StopFlag) async throws
    -> (any SenderLease)?
  {
    pipeline.events(.sender(.standingBy(lock: lockName)))
    var next = Date().addingTimeInterval(intervals.senderStandby)
    while !stop.isSet() {
      if Date() >= next {
        do {
          let lease = try store.takeSenderLease()
          pipeline.events(.sender(.tookOver(lock: lease.name)))
          return lease
        } catch .heldByAnotherSender {
          next = Date().addingTimeInterval(intervals.senderStandby)
        }
      }
      try? await Task.sleep(
        nanoseconds: UInt64(min(0.1, max(0.001, intervals.senderStandby)) * 1e9))
    }
    return nil
  }

  /// Runs the loop `name`, reporting it stopped when it throws.
  private func guarded(_ name: String, _ body: () async throws -> Void) async {
    do { try await body() } catch {
      loopsStopped.add(name)
      pipeline.events(.loopFailed(loop: name, reason: "\(error)"))
    }
  }

  /// Prunes now and then on a thread of its own: its transactions block, and the concurrency
  /// pool's threads answer the webhook. Waits for the thread to end.
  private func pruneLoop(_ intervals: Intervals, leader: any LeaderLease, stop: StopFlag) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread { [self] in
        var next = Date().addingTimeInterval(intervals.firstPrune)
        while !stop.isSet() {
          // A follower keeps its turn due, so an instance taking the lead prunes soon.
          if Date() >= next, leader.isLeader {
            pruneOldRecords { stop.isSet() }
            next = Date().addingTimeInterval(intervals.prune)
          }
          Thread.sleep(forTimeInterval: min(0.1, max(0.01, intervals.prune)))
        }
        continuation.resume()
      }
      thread.name = "reckon-prune"
      thread.start()
    }
  }
}
