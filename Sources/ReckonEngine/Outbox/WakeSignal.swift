import Foundation
import Synchronization

/// Wakes a sleeping sender early: `signal()` from any thread ends the current (or next)
/// `sleep(until:clock:)` at once. Signals while nobody sleeps collapse into one, so a change
/// told during a drain makes the next sleep end at once.
final class WakeSignal: Sendable {
  private struct State {
    var pending = false
    /// The sleep waiting, by its number.
    var sleeper: (sleep: Int, continuation: CheckedContinuation<Bool, Never>)?
    /// A sleep whose time came before it began waiting.
    var timedOut: Int?
    var sleeps = 0
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
      return sleeper.continuation
    }
    sleeper?.resume(returning: true)
  }

  /// Sleeps on `clock` until `date` or a signal, whichever comes first; whether a signal ended
  /// it. Throws `CancellationError` when the task is cancelled, as `Task.sleep` does.
  @discardableResult
  func sleep(until date: Date, clock: any OutboxClock) async throws -> Bool {
    let number = state.withLock { state -> Int in
      state.sleeps += 1
      return state.sleeps
    }
    // The clock may come round before the wait below begins (a simulated clock does at once).
    let timer = Task {
      try await clock.sleep(until: date)
      self.timeUp(number)
    }
    let signalled = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let now = state.withLock { state -> Bool? in
          if state.pending {
            state.pending = false
            return true
          }
          if state.timedOut == number { return false }
          state.sleeper = (number, continuation)
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      timeUp(number)
    }
    timer.cancel()
    try Task.checkCancellation()
    return signalled
  }

  /// Ends sleep `number` as timed out, now or as soon as it waits; nothing for one that ended.
  private func timeUp(_ number: Int) {
    let sleeper = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let sleeper = state.sleeper, sleeper.sleep == number else {
        state.timedOut = number
        return nil
      }
      state.sleeper = nil
      return sleeper.continuation
    }
    sleeper?.resume(returning: false)
  }
}
