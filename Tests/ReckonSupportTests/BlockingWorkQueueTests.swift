import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ReckonSupport

/// Blocking work runs off the Swift concurrency pool, a bounded number at a time.
struct BlockingWorkQueueTests {
  @Test func noMoreThanTheWidthRunAtOnceAndEveryResultComesBack() async throws {
    let queue = BlockingWorkQueue(label: "width-test", width: 3)
    let counts = Counts()
    let results = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<24 {
        group.addTask {
          try await queue.run {
            let now = counts.running.add(1, ordering: .sequentiallyConsistent).newValue
            _ = counts.most.max(now, ordering: .sequentiallyConsistent)
            usleep(5_000)
            counts.running.subtract(1, ordering: .sequentiallyConsistent)
            return index
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.sorted() == Array(0..<24))
    // Never more than the width; more than one, or the queue would not run them side by side.
    #expect((2...3).contains(counts.most.load(ordering: .sequentiallyConsistent)))
    // A lane is freed just after its last result is handed back, so this may take a moment.
    await Self.waitOffPool { queue.runningCount == 0 }
    #expect(queue.runningCount == 0)
  }

  @Test func theWorksErrorReachesTheCaller() async {
    let queue = BlockingWorkQueue(label: "error-test", width: 1)
    await #expect(throws: Broke()) { try await queue.run { () throws -> Int in throw Broke() } }
  }

  /// As `Deadline` cancels work that ran out of time: what still waits behind a blocked piece is
  /// dropped, not run once the block clears.
  @Test func workCancelledBeforeItsTurnNeverRuns() async throws {
    let queue = BlockingWorkQueue(label: "cancel-test", width: 1)
    let release = DispatchSemaphore(value: 0)
    let counts = Counts()
    let blocker = Task.detached { try await queue.run { release.wait() } }
    await Self.waitOffPool { queue.runningCount == 1 }
    let waiter = Task.detached {
      try await queue.run { counts.ran.store(true, ordering: .sequentiallyConsistent) }
    }
    // Cancelled once queued, so the test is of the queue dropping it, not of a check on entry.
    await Self.waitOffPool { queue.waitingCount == 1 }
    #expect(queue.waitingCount == 1)
    waiter.cancel()
    release.signal()
    try await blocker.value
    await #expect(throws: CancellationError.self) { try await waiter.value }
    let workRan = counts.ran.load(ordering: .sequentiallyConsistent)
    #expect(!workRan)
  }

  /// Polls `condition` on a thread of its own until it holds or 25 s pass, so a busy pool does
  /// not keep the test from looking.
  static func waitOffPool(_ condition: @escaping @Sendable () -> Bool) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue(label: "blocking-work-queue-test").async {
        let deadline = Date().addingTimeInterval(25)
        while !condition(), Date() < deadline { usleep(5_000) }
        continuation.resume()
      }
    }
  }
}

/// Counters shared with the work under test.
private final class Counts: Sendable {
  let running = Atomic<Int>(0)
  let most = Atomic<Int>(0)
  let answered = Atomic<Int>(0)
  let ran = Atomic<Bool>(false)
}

private struct Broke: Error, Equatable {}
