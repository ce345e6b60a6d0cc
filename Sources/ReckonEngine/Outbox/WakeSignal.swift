import Foundation
import Synchronization

/// Wakes a sleeping sender early: `signal()` from any thread ends the current (or next)
/// `sleep(until:clock:)` at once. Signals while nobody sleeps collapse into one, so a change
/// told during a drain makes the next sleep end at once.
final class WakeSignal: Sendable {
  private struct State {
    var pending = false
    var sleeper: CheckedContinuation<Bool, Never>?
  }

  private let state = Mutex(State())

  /// Ends the sleep under way, or the next one.
  func signal() {
    let sleeper = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let sleeper = state.sleeper else {
        state.pending = true
        return nil
      }
      state.sleeper = nil
      return sleeper
    }
    sleeper?.resume(returning: true)
  }

  /// Sleeps on `clock` until `date` or a signal, whichever comes first; whether a signal ended
  /// it.
  @discardableResult
  func sleep(until date: Date, clock: any OutboxClock) async -> Bool {
    let timer = Task {
      try await clock.sleep(until: date)
      self.timeUp()
    }
    let signalled = await withCheckedContinuation {
      (continuation: CheckedContinuation<Bool, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.pending {
          state.pending = false
          return true
        }
        state.sleeper = continuation
        return false
      }
      if resumeNow { continuation.resume(returning: true) }
    }
    timer.cancel()
    return signalled
  }

  /// Ends the sleep under way as timed out; nothing when it already ended.
  private func timeUp() {
    let sleeper = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      defer { state.sleeper = nil }
      return state.sleeper
    }
    sleeper?.resume(returning: false)
  }
}
