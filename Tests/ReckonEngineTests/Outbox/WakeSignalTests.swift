import Foundation
import Testing

@testable import ReckonEngine

/// A sender's sleep ends at its time, or at once when told of a change.
struct WakeSignalTests {
  @Test func aSignalEndsALongSleepAtOnce() async throws {
    let wake = WakeSignal()
    let started = Date()
    Task {
      try await Task.sleep(nanoseconds: 50_000_000)
      wake.signal()
    }
    try await wake.sleep(until: started.addingTimeInterval(30), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) < 5)
  }

  @Test func aSignalWhileAwakeEndsTheNextSleepAtOnce() async throws {
    let wake = WakeSignal()
    wake.signal()
    wake.signal()
    let started = Date()
    try await wake.sleep(until: started.addingTimeInterval(30), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) < 5)
    // The two signals were one: the sleep after lasts its time.
    let again = Date()
    try await wake.sleep(until: again.addingTimeInterval(0.2), clock: SystemClock())
    #expect(Date().timeIntervalSince(again) >= 0.19)
  }

  @Test func withoutASignalTheSleepLastsUntilItsTime() async throws {
    let wake = WakeSignal()
    let started = Date()
    try await wake.sleep(until: started.addingTimeInterval(0.15), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) >= 0.14)
  }
}

/// A clock whose sleeps return at once, before the sleeper can have begun to wait.
struct InstantClock: OutboxClock {
  func now() -> Date { Date() }
  func sleep(until date: Date) async throws {}
}

extension WakeSignalTests {
  @Test func aCancelledSleepEndsAtOnceAndThrows() async throws {
    let wake = WakeSignal()
    let sleeping = Task {
      try await wake.sleep(until: Date().addingTimeInterval(30), clock: SystemClock())
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    let cancelled = Date()
    sleeping.cancel()
    await #expect(throws: CancellationError.self) { try await sleeping.value }
    #expect(Date().timeIntervalSince(cancelled) < 5)
  }

  @Test func aTimeThatComesBeforeTheWaitBeginsStillEndsTheSleep() async throws {
    let wake = WakeSignal()
    for _ in 0..<1_000 {
      let signalled = try await wake.sleep(until: Date(), clock: InstantClock())
      #expect(!signalled)
    }
  }
}
