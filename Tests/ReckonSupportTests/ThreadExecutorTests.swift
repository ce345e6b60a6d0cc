import Foundation
import Testing

@testable import ReckonSupport

/// Work on a `ThreadExecutor` runs on its own threads, and a `Deadline` answers on time even
/// when every thread that could start the work is blocked.
struct ThreadExecutorTests {
  @Test func workRunsOnTheExecutorsOwnThreads() async throws {
    let executor = ThreadExecutor(label: "reckon-test-executor", width: 2)
    let own = try await Deadline.run(within: .seconds(5), on: executor) {
      executor.runsTheCurrentThread
    }
    #expect(own)
    #expect(!executor.runsTheCurrentThread)
  }

  @Test func aDeadlineAnswersWhenEveryThreadThatWouldStartTheWorkIsBlocked() async throws {
    let executor = ThreadExecutor(label: "reckon-test-blocked", width: 1)
    let release = DispatchSemaphore(value: 0)
    // Blocks the executor's one thread, as a fact source that blocks despite the contract does.
    let blocker = Deadline.start(within: .seconds(30), on: executor) { release.wait() }
    defer { release.signal() }
    let started = ContinuousClock.now
    await #expect(throws: Deadline.Expired.self) {
      try await Deadline.run(within: .milliseconds(100), on: executor) { 1 }
    }
    let elapsed = ContinuousClock.now - started
    // Well short of the 30 s the blocked thread would take; a loaded machine adds its delay.
    #expect(elapsed < .seconds(5))
    #expect(elapsed >= .milliseconds(100))
    _ = blocker
  }

  @Test func threadsStartAsWorkArrivesUpToTheWidth() async throws {
    let executor = ThreadExecutor(label: "reckon-test-width", width: 3)
    let release = DispatchSemaphore(value: 0)
    let pending = (0..<5).map { _ in
      Deadline.start(within: .seconds(30), on: executor) { release.wait() }
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(executor.load.busy == 3)
    #expect(executor.load.waiting == 2)
    for _ in 0..<5 { release.signal() }
    for lookup in pending { try await lookup.value }
    #expect(executor.load.waiting == 0)
  }
}
