import Foundation
import Testing

@testable import ReckonSupport

/// Waits `seconds` without looking at cancellation, as a blocked database call would.
private func uncancellableWait(_ seconds: Double) async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
  }
}

private struct Refused: Error, Equatable {}

/// Set when a piece of work has run to its end.
private final class WorkDone: @unchecked Sendable {
  private let lock = NSLock()
  private var done = false

  func mark() { lock.withLock { done = true } }
  var isDone: Bool { lock.withLock { done } }
}

struct DeadlineTests {
  @Test func theWorksResultComesBack() async throws {
    #expect(try await Deadline.run(within: .seconds(5)) { 42 } == 42)
    let started = Deadline.start(within: .seconds(5)) { "later" }
    #expect(try await started.value == "later")
  }

  @Test func theWorksErrorComesBack() async {
    await #expect(throws: Refused.self) {
      try await Deadline.run(within: .seconds(5)) { () async throws -> Int in throw Refused() }
    }
  }

  @Test func workThatIgnoresCancellationStillExpiresAtTheLimit() async {
    // What is pinned is that the caller is not kept waiting for the work: the work is still
    // running when the expiry arrives. No wall-clock bound: in a full test run on two busy cores
    // the task pool can be starved for a minute, and the expiry reaches the caller through it.
    let work = WorkDone()
    await #expect(throws: Deadline.Expired.self) {
      try await Deadline.run(within: .milliseconds(50)) {
        await uncancellableWait(300)
        work.mark()
      }
    }
    #expect(!work.isDone, "the limit waited for the work to end")
  }

  @Test func anEarlierLimitStartedAfterALaterOneIsNotKeptWaiting() async {
    let long = Deadline.start(within: .seconds(600)) { await uncancellableWait(900) }
    let work = WorkDone()
    await #expect(throws: Deadline.Expired.self) {
      try await Deadline.run(within: .milliseconds(50)) {
        await uncancellableWait(300)
        work.mark()
      }
    }
    #expect(!work.isDone, "the earlier limit waited for its work (or the later limit) to end")
    let waiting = Task { try await long.value }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
  }

  @Test func manyRunsAtOnceEachGetTheirOwnResult() async throws {
    let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
      for index in 0..<200 {
        group.addTask {
          (index, try await Deadline.run(within: .seconds(30)) { index * 2 })
        }
      }
      var all: [Int: Int] = [:]
      for try await (index, value) in group { all[index] = value }
      return all
    }
    #expect(results.count == 200)
    #expect(results.allSatisfy { $0.value == $0.key * 2 })
  }

  @Test func cancellingTheWaiterEndsTheWaitAtOnce() async {
    // Had the cancellation been missed, the wait would end at the limit with `Expired`, not
    // `CancellationError`; the limit is far off so a starved task pool cannot reach it first.
    let waiting = Task {
      try await Deadline.run(within: .seconds(600)) { await uncancellableWait(900) }
    }
    let started = ContinuousClock.now
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(ContinuousClock.now - started < .seconds(600))
  }

  @Test func aResultAwaitedTwiceComesBackBothTimes() async throws {
    let pending = Deadline.start(within: .seconds(30)) { 42 }
    #expect(try await pending.value == 42)
    // Bounded, so a second wait that was never resumed fails the test instead of hanging it.
    #expect(try await Deadline.run(within: .seconds(30)) { try await pending.value } == 42)
  }
}
