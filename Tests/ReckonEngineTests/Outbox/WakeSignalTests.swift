import Foundation
import Testing

@testable import ReckonEngine

/// A sender's sleep ends at its time, or at once when told of a change.
struct WakeSignalTests {
  @Test func aSignalEndsALongSleepAtOnce() async {
    let wake = WakeSignal()
    let started = Date()
    Task {
      try await Task.sleep(nanoseconds: 50_000_000)
      wake.signal()
    }
    await wake.sleep(until: started.addingTimeInterval(30), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) < 5)
  }

  @Test func aSignalWhileAwakeEndsTheNextSleepAtOnce() async {
    let wake = WakeSignal()
    wake.signal()
    wake.signal()
    let started = Date()
    await wake.sleep(until: started.addingTimeInterval(30), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) < 5)
    // The two signals were one: the sleep after lasts its time.
    let again = Date()
    await wake.sleep(until: again.addingTimeInterval(0.2), clock: SystemClock())
    #expect(Date().timeIntervalSince(again) >= 0.19)
  }

  @Test func withoutASignalTheSleepLastsUntilItsTime() async {
    let wake = WakeSignal()
    let started = Date()
    await wake.sleep(until: started.addingTimeInterval(0.15), clock: SystemClock())
    #expect(Date().timeIntervalSince(started) >= 0.14)
  }
}
