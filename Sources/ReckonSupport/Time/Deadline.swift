import Foundation

/// Runs async work with a time limit that holds even when the work ignores cancellation (a
/// blocked database call, say): at the limit the caller gets `Deadline.Expired` at once, the work
/// is cancelled and left to finish on its own.
///
/// Each run costs one task (the work's) and an entry in one shared clock thread, not a sleeping
/// task of its own: the webhook runs one per fact source on every request.
public enum Deadline {
  /// The work did not finish in time.
  public struct Expired: Error, Hashable, Sendable {}

  /// Work started under a time limit, whose result is awaited later with `value`, so several
  /// can run at once without a task group.
  public struct Pending<T: Sendable>: Sendable {
    fileprivate let gate: ResumeGate<T>

    /// The work's result, `Expired` once the limit passed, or `CancellationError` when the
    /// waiting task is cancelled first.
    public var value: T {
      get async throws {
        let gate = gate
        return try await withTaskCancellationHandler {
          try await withCheckedThrowingContinuation { gate.install($0) }
        } onCancel: {
          gate.resume(with: .failure(CancellationError()))
        }
      }
    }
  }

  /// How long after the call work that has not even started (every thread that could start it
  /// blocked) counts as expired all the same: twice its limit and a second, so that a pool only
  /// busy, whose queue a burst has made long, does not fail lookups that were never slow.
  static func backstop(for limit: Duration) -> Duration { limit * 2 + .seconds(1) }

  /// Starts `work` now, on `executor`'s threads when one is given; its limit counts from when
  /// it starts running, and from the call at most `backstop(for: limit)`.
  public static func start<T: Sendable>(
    within limit: Duration, on executor: (any TaskExecutor)? = nil,
    _ work: @escaping @Sendable () async throws -> T
  ) -> Pending<T> {
    let gate = ResumeGate<T>()
    // Straight from the clock's thread: when the threads that would start the work or deliver
    // its expiry are all blocked, the caller is still answered.
    let backstop = DeadlineClock.shared.schedule(after: backstop(for: limit)) {
      gate.resume(with: .failure(Expired()))
    }
    gate.onFinish { DeadlineClock.shared.cancel(backstop) }
    gate.track(
      Task(executorPreference: executor) {
        // The limit counts from when the work gets a thread, as a timer task started beside it
        // would: a pool too busy to start the work says nothing about the source being slow.
        let alarm = DeadlineClock.shared.schedule(after: limit) {
          // Through the pool too, so work queued before the expiry still gets its turn first.
          Task { gate.resume(with: .failure(Expired())) }
        }
        gate.onFinish { DeadlineClock.shared.cancel(alarm) }
        do { gate.resume(with: .success(try await work())) } catch {
          gate.resume(with: .failure(error))
        }
      })
    return Pending(gate: gate)
  }

  /// The work's result, or `Expired` after `limit`; on `executor`'s threads when one is given.
  public static func run<T: Sendable>(
    within limit: Duration, on executor: (any TaskExecutor)? = nil,
    _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await start(within: limit, on: executor, work).value
  }
}

/// Resumes a continuation exactly once, with whichever result comes first (kept until a
/// continuation is installed), and then cancels the work racing for it.
private final class ResumeGate<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?
  private var early: Result<T, any Error>?
  private var finished = false
  private var task: Task<Void, Never>?
  private var finish: [@Sendable () -> Void] = []

  func install(_ continuation: CheckedContinuation<T, any Error>) {
    lock.lock()
    if let early {
      lock.unlock()
      continuation.resume(with: early)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  /// Runs `action` once the result is in (at once if it already is); each action given runs.
  func onFinish(_ action: @escaping @Sendable () -> Void) {
    lock.lock()
    let now = finished
    if !now { finish.append(action) }
    lock.unlock()
    if now { action() }
  }

  func track(_ task: Task<Void, Never>) {
    lock.lock()
    let cancelNow = finished
    if !cancelNow { self.task = task }
    lock.unlock()
    if cancelNow { task.cancel() }
  }

  func resume(with result: Result<T, any Error>) {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return
    }
    finished = true
    let continuation = self.continuation
    self.continuation = nil
    // Kept even when a waiter is resumed now, so a later `value` gets it rather than hanging.
    early = result
    let racing = task
    let finish = finish
    task = nil
    self.finish = []
    lock.unlock()
    continuation?.resume(with: result)
    for action in finish { action() }
    racing?.cancel()
  }
}
